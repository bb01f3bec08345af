import type { Db, Executor } from '@crewswap/kit';
import type { RosterSubscription, RosterSubscriptionStatus } from '@crewswap/proto';

export interface SubscriptionRow {
  pilot_id: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  last_fetched_at: Date | null;
  last_status: RosterSubscriptionStatus;
  last_error: string | null;
  failures: number;
  next_fetch_at: Date | null;
  claimed_until: Date | null;
  refreshed_at: Date | null;
}

export const toSubscription = (row: SubscriptionRow): RosterSubscription => ({
  url: row.url,
  lastFetchedAt: row.last_fetched_at?.toISOString() ?? null,
  lastStatus: row.last_status,
  ...(row.last_error ? { lastError: row.last_error } : {}),
  nextFetchAt: row.next_fetch_at?.toISOString() ?? null,
});

/** What a fetch leaves on the row: its outcome, and when the address is fetched next (null: paused). */
export interface FetchOutcome {
  status: RosterSubscriptionStatus;
  error: string | null;
  fetchedAt: Date;
  nextFetchAt: Date | null;
  /** The answer's validators; left as they were when absent (a 304 or a failure). */
  etag?: string | null;
  lastModified?: string | null;
  failures: number;
}

/** Each pilot's roster address and how its fetching goes; one per pilot. */
export function createSubscriptionRepository(db: Db) {
  return {
    async find(pilotId: string, trx: Executor = db): Promise<SubscriptionRow | undefined> {
      return (await trx('roster_subscriptions').where({ pilot_id: pilotId }).first()) as SubscriptionRow | undefined;
    },

    /** A new or changed address after its first fetch: any earlier address and its state are replaced. */
    async save(pilotId: string, url: string, outcome: FetchOutcome, trx: Executor = db): Promise<SubscriptionRow> {
      const row = {
        pilot_id: pilotId,
        url,
        etag: outcome.etag ?? null,
        last_modified: outcome.lastModified ?? null,
        last_fetched_at: outcome.fetchedAt,
        last_status: outcome.status,
        last_error: outcome.error,
        failures: outcome.failures,
        next_fetch_at: outcome.nextFetchAt,
        claimed_until: null,
      };
      const [saved] = (await trx('roster_subscriptions').insert(row).onConflict('pilot_id').merge().returning('*')) as SubscriptionRow[];
      return saved!;
    },

    /**
     * Records a fetch of `url` and lets go of its claim. Nothing happens when the pilot has removed
     * the address or set another meanwhile: that one's state is its own.
     */
    /**
     * The outcome of a fetch of the pilot's address `url`; `claim`, a scheduled fetch's, is recorded
     * only while it is still the address's claim (a replica that outlived it does not record over the
     * one that took the address over). Answers undefined when nothing matched.
     */
    async recordFetch(pilotId: string, url: string, outcome: FetchOutcome, trx: Executor = db, claim?: Date): Promise<SubscriptionRow | undefined> {
      const changes: Record<string, unknown> = {
        last_fetched_at: outcome.fetchedAt,
        last_status: outcome.status,
        last_error: outcome.error,
        failures: outcome.failures,
        next_fetch_at: outcome.nextFetchAt,
        claimed_until: null,
      };
      if (outcome.etag !== undefined) changes.etag = outcome.etag;
      if (outcome.lastModified !== undefined) changes.last_modified = outcome.lastModified;
      const [row] = (await trx('roster_subscriptions').where({ pilot_id: pilotId, url, ...(claim ? { claimed_until: claim } : {}) }).update(changes).returning('*')) as SubscriptionRow[];
      return row;
    },

    async remove(pilotId: string, trx: Executor = db): Promise<void> {
      await trx('roster_subscriptions').where({ pilot_id: pilotId }).delete();
    },

    /**
     * Takes the pilot's turn to fetch now: at most one a minute. Answers the row, or the time of the
     * last refresh when it is too soon (or undefined when there is no address).
     */
    async takeRefresh(pilotId: string, now: Date, intervalMs: number, claimUntil: Date, trx: Executor = db): Promise<{ row?: SubscriptionRow; lastRefresh?: Date }> {
      const [row] = (await trx('roster_subscriptions')
        .where({ pilot_id: pilotId })
        .where((q) => q.whereNull('refreshed_at').orWhere('refreshed_at', '<=', new Date(now.getTime() - intervalMs)))
        .update({ refreshed_at: now, claimed_until: claimUntil })
        .returning('*')) as SubscriptionRow[];
      if (row) return { row };
      const current = await this.find(pilotId, trx);
      return { lastRefresh: current?.refreshed_at ?? undefined };
    },

    /**
     * Claims up to `limit` due addresses of pilots still known, until `claimUntil`: rows another
     * replica is claiming at this moment are skipped (SKIP LOCKED), and a claim that ran out (its
     * replica died mid-fetch) is due again.
     */
    async claimDue(now: Date, claimUntil: Date, limit: number, trx: Executor = db): Promise<SubscriptionRow[]> {
      const result = await trx.raw(
        `UPDATE roster_subscriptions s SET claimed_until = ?
          WHERE s.pilot_id IN (
            SELECT d.pilot_id FROM roster_subscriptions d
              JOIN pilots p ON p.id = d.pilot_id AND NOT p.deleted
             WHERE d.next_fetch_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
             ORDER BY d.next_fetch_at
             LIMIT ?
               FOR UPDATE OF d SKIP LOCKED)
          RETURNING s.*`,
        [claimUntil, now, now, limit],
      );
      return result.rows as SubscriptionRow[];
    },
  };
}
export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;
