import { createHash } from 'node:crypto';
import { badRequest, composeMail, notFound, pushToEach, tooMany, type Clock, type Db, type Executor, type Logger, type Outbox } from '@crewswap/kit';
import {
  ROSTER_FETCH_MAX_FAILURES,
  ROSTER_FETCH_MESSAGES,
  ROSTER_REFRESH_INTERVAL_SECONDS,
  rosterChangedTitle,
  SUBJECTS,
  type RosterSubscription,
  type RosterSubscriptionFetched,
} from '@crewswap/proto';
import type { PilotRepository, KnownPilot } from '../data/pilots';
import { toSubscription, type FetchOutcome, type SubscriptionRepository, type SubscriptionRow } from '../data/subscriptions';
import { FetchRefused, fetchRoster, rosterUrl, type Fetched, type FetchRosterOptions } from '../fetch/fetch-roster';
import type { RosterMetrics } from '../metrics';
import type { ImportRoster } from './import-roster';

/** Longer than a fetch (10 s) and an import (trips answers within 30 s) together: a claim outlives its work unless its replica died. */
const CLAIM_MS = 5 * 60 * 1000;
/** Due addresses one replica claims in one look, and fetches this many at once. */
const CLAIM_BATCH = 20;
const CONCURRENCY = 4;

/**
 * When an address is fetched next: an interval from now, plus up to a fifth of one that is the
 * pilot's own (from a hash of their id), so that addresses saved in the same minute drift apart.
 */
export function nextFetchAt(pilotId: string, now: Date, intervalMs: number): Date {
  const spread = createHash('sha256').update(pilotId).digest().readUInt32BE(0) / 2 ** 32;
  return new Date(now.getTime() + intervalMs + Math.floor(spread * intervalMs * 0.2));
}

export interface RosterSubscriptionDeps {
  db: Db;
  outbox: Outbox;
  clock: Clock;
  log: Logger;
  pilots: PilotRepository;
  subscriptions: SubscriptionRepository;
  importRoster: ImportRoster;
  metrics: RosterMetrics;
  fetch: FetchRosterOptions;
  intervalMs: number;
  productName: string;
}

/**
 * A pilot's roster address: saved after a first fetch that imports, then fetched again on its own
 * through the same import as an upload (source `subscription`). A scheduled fetch that changes the
 * roster tells the pilot by push and bell; 5 failures in a row pause the address and tell the
 * pilot by mail and bell. Failures never touch the pilot's trips.
 */
export function createRosterSubscriptions(deps: RosterSubscriptionDeps) {
  const { db, outbox, clock, log, pilots, subscriptions, importRoster, metrics } = deps;

  /** Fetches and, when the answer is a roster, imports it; a refusal of either throws FetchRefused. */
  async function fetchAndImport(pilot: KnownPilot, url: string, row: SubscriptionRow | undefined, startedAt: Date, claim?: Date) {
    const stop = metrics.fetchDuration.startTimer();
    let fetched: Fetched;
    try {
      fetched = await fetchRoster(url, { etag: row?.etag, lastModified: row?.last_modified }, deps.fetch);
    } finally {
      stop();
    }
    if (fetched.notModified) return { fetched, recorded: undefined };
    // A saved address removed (or its pilot deleted) while it was fetched, or a scheduled fetch whose
    // claim ran out and another replica took over: its roster is not imported. Asked again here, after
    // the fetch (up to 10 s), not only when the outcome is recorded, which is after trips has imported it.
    if (row) {
      const now = await subscriptions.find(row.pilot_id);
      if (now?.url !== row.url || (claim && now.claimed_until?.getTime() !== claim.getTime())) throw notFound(ROSTER_FETCH_MESSAGES.noSubscription);
    }
    const host = rosterUrl(url).hostname;
    const recorded = await importRoster.prepare({
      source: 'subscription',
      pilotId: pilot.id,
      pilot,
      // Only the host: the path of a roster address is often its secret.
      files: [{ name: host, contentType: fetched.contentType, text: fetched.text, sizeBytes: fetched.sizeBytes }],
      startedAt,
      attachmentCount: 1,
    });
    if (!recorded.outcome.ok) throw new FetchRefused('status', recorded.outcome.message);
    return { fetched, recorded, result: recorded.outcome.result };
  }

  const refusal = (error: unknown): FetchRefused => {
    if (error instanceof FetchRefused) return error;
    throw error;
  };

  /**
   * One fetch of a saved address (scheduled or asked for): its outcome recorded on the row, the
   * roster imported when it changed, the pilot told of a change (scheduled) or of a pause.
   */
  async function fetchSaved(row: SubscriptionRow, scheduled: boolean): Promise<RosterSubscriptionFetched> {
    // Wall time, as an upload's: the history measures how long the import took.
    const startedAt = new Date();
    const pilot = await pilots.find(row.pilot_id);
    if (!pilot) {
      // A deleted pilot's address is never fetched again.
      await subscriptions.remove(row.pilot_id);
      throw notFound(ROSTER_FETCH_MESSAGES.noSubscription);
    }
    const next = (at: Date) => nextFetchAt(pilot.id, at, deps.intervalMs);
    // A scheduled fetch holds the address by its claim: recorded only while the claim is still its own.
    const claim = scheduled ? (row.claimed_until ?? undefined) : undefined;
    let attempt: Awaited<ReturnType<typeof fetchAndImport>>;
    try {
      attempt = await fetchAndImport(pilot, row.url, row, startedAt, claim);
    } catch (error) {
      const refused = refusal(error);
      const failures = row.failures + 1;
      const paused = failures >= ROSTER_FETCH_MAX_FAILURES;
      const now = clock.now();
      metrics.fetches.inc({ result: 'failed' });
      metrics.failures.inc({ reason: refused.reason });
      const saved = await db.transaction(async (trx) => {
        const updated = await subscriptions.recordFetch(
          pilot.id,
          row.url,
          { status: paused ? 'paused' : 'failed', error: refused.message, fetchedAt: now, nextFetchAt: paused ? null : next(now), failures },
          trx,
          claim,
        );
        if (updated && paused && row.last_status !== 'paused') await tellPaused(trx, pilot, refused.message);
        return updated;
      });
      if (!scheduled) throw badRequest(refused.message, { extra: { message: refused.message } });
      return { ...(saved ? toSubscription(saved) : toSubscription(row)) };
    }

    const now = clock.now();
    const outcome: FetchOutcome = { status: 'ok', error: null, fetchedAt: now, nextFetchAt: next(now), failures: 0 };
    if (attempt.fetched.notModified) {
      metrics.fetches.inc({ result: 'not_modified' });
      const saved = await subscriptions.recordFetch(pilot.id, row.url, { ...outcome, status: 'not_modified' }, db, claim);
      return toSubscription(saved ?? row);
    }
    const { fetched, recorded, result } = attempt;
    const saved = await db.transaction(async (trx) => {
      // The address may have been removed (or the pilot deleted) while it was fetched: then nothing is recorded.
      const updated = await subscriptions.recordFetch(pilot.id, row.url, { ...outcome, etag: fetched.etag, lastModified: fetched.lastModified }, trx, claim);
      if (!updated) return undefined;
      await recorded!.write(trx);
      if (scheduled && result!.addedCount + result!.changedCount + result!.removedCount > 0) {
        await pushToEach(outbox, trx, [pilot.id], { kind: 'roster_change', title: rosterChangedTitle(result!), body: result!.message, url: '/', reason: 'roster_change' }, (id) => `roster_fetch:${id}:${now.getTime()}`);
      }
      return updated;
    });
    metrics.fetches.inc({ result: 'imported' });
    if (!saved) throw notFound(ROSTER_FETCH_MESSAGES.noSubscription);
    return { ...toSubscription(saved), result };
  }

  async function tellPaused(trx: Executor, pilot: KnownPilot, why: string) {
    const lines = [ROSTER_FETCH_MESSAGES.paused, '', `The last attempt said: ${why}`];
    await outbox.write(trx, SUBJECTS.sendMail, { to: pilot.email, subject: `${deps.productName}: your roster address stopped working`, ...composeMail({ product: deps.productName, lines }) });
    await pushToEach(outbox, trx, [pilot.id], { kind: 'roster_change', title: 'Your roster address stopped working', body: ROSTER_FETCH_MESSAGES.paused, url: '/', reason: 'roster_change' }, (id) => `roster_paused:${id}:${clock.now().getTime()}`);
  }

  return {
    async get(pilotId: string): Promise<RosterSubscription> {
      const row = await subscriptions.find(pilotId);
      if (!row) throw notFound(ROSTER_FETCH_MESSAGES.noSubscription);
      return toSubscription(row);
    },

    /** Saves an address after a first fetch that imports; a refused address or file stores nothing. */
    async subscribe(pilotId: string, url: string): Promise<RosterSubscriptionFetched> {
      // Wall time, as an upload's: the history measures how long the import took.
    const startedAt = new Date();
      const pilot = await pilots.find(pilotId);
      if (!pilot) throw notFound('Pilot not found');
      let attempt: Awaited<ReturnType<typeof fetchAndImport>>;
      try {
        const normalised = rosterUrl(url);
        attempt = await fetchAndImport(pilot, normalised.toString(), undefined, startedAt);
      } catch (error) {
        const refused = refusal(error);
        metrics.fetches.inc({ result: 'failed' });
        metrics.failures.inc({ reason: refused.reason });
        throw badRequest(refused.message, { extra: { message: refused.message } });
      }
      const { fetched, recorded, result } = attempt;
      if (fetched.notModified) throw new Error('a first fetch sends no validators');
      const now = clock.now();
      const saved = await db.transaction(async (trx) => {
        await recorded!.write(trx);
        return subscriptions.save(
          pilotId,
          url.trim(),
          { status: 'ok', error: null, fetchedAt: now, nextFetchAt: nextFetchAt(pilotId, now, deps.intervalMs), etag: fetched.etag, lastModified: fetched.lastModified, failures: 0 },
          trx,
        );
      });
      metrics.fetches.inc({ result: 'imported' });
      return { ...toSubscription(saved), result };
    },

    async remove(pilotId: string): Promise<void> {
      await subscriptions.remove(pilotId);
    },

    /** Fetches now at the pilot's asking: at most once a minute (429 with the wait). */
    async refresh(pilotId: string): Promise<RosterSubscriptionFetched> {
      const now = clock.now();
      const intervalMs = ROSTER_REFRESH_INTERVAL_SECONDS * 1000;
      const taken = await subscriptions.takeRefresh(pilotId, now, intervalMs, new Date(now.getTime() + CLAIM_MS));
      if (!taken.row) {
        if (!taken.lastRefresh) throw notFound(ROSTER_FETCH_MESSAGES.noSubscription);
        const seconds = Math.max(1, Math.ceil((taken.lastRefresh.getTime() + intervalMs - now.getTime()) / 1000));
        throw tooMany(ROSTER_FETCH_MESSAGES.tooSoon(seconds), { extra: { message: ROSTER_FETCH_MESSAGES.tooSoon(seconds), retryAfterSeconds: seconds } });
      }
      return fetchSaved(taken.row, false);
    },

    /**
     * One look for due addresses: claims a batch in the database (a replica's claim excludes the
     * others) and fetches them a few at a time. Answers how many it fetched.
     */
    async fetchDue(): Promise<number> {
      const now = clock.now();
      const claimed = await subscriptions.claimDue(now, new Date(now.getTime() + CLAIM_MS), CLAIM_BATCH);
      let index = 0;
      const worker = async () => {
        while (index < claimed.length) {
          const row = claimed[index++]!;
          // A failure that is not the address's (trips or the database away) leaves the claim to run out: then it is due again.
          await fetchSaved(row, true).catch((error: unknown) => log.warn({ err: error, pilotId: row.pilot_id }, 'roster address fetch failed; tried again when its claim runs out'));
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, worker));
      return claimed.length;
    },
  };
}
export type RosterSubscriptions = ReturnType<typeof createRosterSubscriptions>;
