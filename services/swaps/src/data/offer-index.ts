import { randomUUID } from 'node:crypto';
import type { Db } from '@crewswap/kit';
import type { Logger } from 'pino';
import pg from 'pg';
import { aircraftFlownBy, fleetsThatFly } from '../domain/compatibility';
import type { OfferQuery } from './read-model';

/** The channel the offers table's triggers announce changed trip ids on (migration 'offer-notify'). */
export const OFFERS_CHANNEL = 'swaps_offers';
/** What the truncate trigger sends instead of ids: every offer is gone. */
export const RELOAD_ALL = '*';
/** The prefix of catchUp()'s own notices. */
const BARRIER = 'barrier:';
const BARRIER_TIMEOUT_MS = 5000;
/** How often the index proves to itself that notices still reach it. */
const HEARTBEAT_MS = 30_000;
/** How long to wait before listening again after the listening connection was lost. */
const RECONNECT_MS = 1000;

interface Offer {
  tripId: string;
  pilotId: string;
  /** Start and end as day numbers: comparing numbers in the scan is several times cheaper than comparing date strings. */
  startDay: number;
  endDay: number;
  training: boolean;
  ltcCaptain: boolean;
  /** `{"trip":…,"pilot":…,"sameDates":` as UTF-8: the answer's row, less the one value that depends on the asker. */
  prefix: Buffer;
  bucket: string;
}

/**
 * One bucket's offers in the answer's order (same dates first aside): start date, end date, trip
 * id; beside them, row for row, what the scan reads.
 */
interface Bucket {
  offers: Offer[];
  startDays: number[];
  endDays: number[];
  pilots: number[];
  flags: number[];
}
const TRAINING = 1;
const LTC_CAPTAIN = 2;

interface OfferRow {
  trip_id: string;
  pilot_id: string;
  rank: string;
  fleet: string;
  aircraft: string;
  start_date: string;
  end_date: string;
  training: boolean;
  ltc_captain: boolean;
  trip_json: string;
  pilot_json: string;
}

const OFFER_SELECT = `SELECT trip_id, pilot_id, rank, fleet, aircraft, start_date::text AS start_date, end_date::text AS end_date,
                             training, ltc_captain, trip_json, pilot_json
                        FROM offers`;

const EMPTY = Buffer.from('[]');
const TRUE_END = Buffer.from('true}');
const FALSE_END = Buffer.from('false}');
const COMMA = ','.charCodeAt(0);
const OPEN = '['.charCodeAt(0);
const CLOSE = ']'.charCodeAt(0);

const bucketOf = (rank: string, fleet: string, aircraft: string) => `${rank}|${fleet}|${aircraft}`;

export interface OfferIndex {
  /**
   * The Find swaps answer (the JSON text of SwapMatch[]) from memory, exactly as the offers
   * query gives it, or undefined while the index is not in step with the table (starting, or
   * its listening connection lost): the caller then asks Postgres.
   */
  findJson(query: OfferQuery): Buffer | undefined;
  /**
   * Settles once every change committed before the call is in the index (a barrier through the
   * same channel: Postgres delivers notices in commit order). At once when the index is not in use.
   */
  catchUp(): Promise<void>;
  /** Offers held, and whether the index answers. */
  status(): { offers: number; ready: boolean };
  close(): Promise<void>;
}

/**
 * The offers table held in memory, in buckets by rank, fleet and aircraft kept in the answer's
 * order: Find swaps is the hot read of the product, and answering it from memory costs a binary
 * search and a copy of rows already in UTF-8, where the query aggregated hundreds of rows into
 * text for the driver to decode and the server to encode again (`npm run bench -w @crewswap/swaps`).
 * Postgres stays the truth: triggers on the table NOTIFY the
 * trip ids a committed transaction changed, and every replica re-reads those rows, so an answer is
 * as fresh as the table within the notice's delay (milliseconds). Listening starts before the
 * first load, so nothing committed between the two is missed. While the listening connection is
 * down, nothing is answered from memory; once it is back the index is loaded afresh.
 */
export async function startOfferIndex(deps: { db: Db; connectionString: string; log: Logger; heartbeatMs?: number }): Promise<OfferIndex> {
  const { db, log } = deps;
  const offers = new Map<string, Offer>();
  const buckets = new Map<string, Bucket>();
  /** Pilot ids as small numbers, for the scan to compare. */
  const pilotNumbers = new Map<string, number>();
  const pilotNumber = (id: string) => {
    let n = pilotNumbers.get(id);
    if (n === undefined) pilotNumbers.set(id, (n = pilotNumbers.size));
    return n;
  };
  let ready = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let pending = new Set<string>();
  let refreshing: Promise<boolean> | undefined;
  let reloadWanted = false;
  /** catchUp() calls waiting for their barrier notice, by token. */
  const barriers = new Map<string, () => void>();

  function put(row: OfferRow): void {
    remove(row.trip_id);
    const offer: Offer = {
      tripId: row.trip_id,
      pilotId: row.pilot_id,
      startDay: dayNumber(row.start_date),
      endDay: dayNumber(row.end_date),
      training: row.training,
      ltcCaptain: row.ltc_captain,
      prefix: Buffer.from(`{"trip":${row.trip_json},"pilot":${row.pilot_json},"sameDates":`),
      bucket: bucketOf(row.rank, row.fleet, row.aircraft),
    };
    offers.set(offer.tripId, offer);
    let bucket = buckets.get(offer.bucket);
    if (!bucket) buckets.set(offer.bucket, (bucket = { offers: [], startDays: [], endDays: [], pilots: [], flags: [] }));
    // In a load, which comes in that order, each lands at the end.
    const at = firstWhere(bucket.offers.length, (i) => inAnswerOrder(offer, bucket.offers[i]!));
    bucket.offers.splice(at, 0, offer);
    bucket.startDays.splice(at, 0, offer.startDay);
    bucket.endDays.splice(at, 0, offer.endDay);
    bucket.pilots.splice(at, 0, pilotNumber(offer.pilotId));
    bucket.flags.splice(at, 0, (offer.training ? TRAINING : 0) | (offer.ltcCaptain ? LTC_CAPTAIN : 0));
  }

  function remove(tripId: string): void {
    const offer = offers.get(tripId);
    if (!offer) return;
    offers.delete(tripId);
    const bucket = buckets.get(offer.bucket)!;
    const at = bucket.offers.indexOf(offer);
    for (const column of [bucket.offers, bucket.startDays, bucket.endDays, bucket.pilots, bucket.flags]) column.splice(at, 1);
  }

  async function reloadAll(): Promise<void> {
    const { rows } = await db.raw<{ rows: OfferRow[] }>(`${OFFER_SELECT} ORDER BY start_date, end_date, trip_id`);
    offers.clear();
    buckets.clear();
    for (const row of rows) put(row);
  }

  async function reread(tripIds: string[]): Promise<void> {
    const { rows } = await db.raw<{ rows: OfferRow[] }>(`${OFFER_SELECT} WHERE trip_id = ANY(?::uuid[])`, [tripIds]);
    for (const id of tripIds) remove(id);
    for (const row of rows) put(row);
  }

  /**
   * Applies every notice received so far; one pass at a time, so rows are never read out of order.
   * Settles true when the index is in step with the table, false when a read failed.
   */
  function refresh(): Promise<boolean> {
    // Cleared only once settled (a promise callback runs after this assignment, even when the
    // drain finds nothing to do).
    refreshing ??= drain().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  async function drain(): Promise<boolean> {
    try {
      while (reloadWanted || pending.size > 0) {
        const ids = [...pending];
        pending = new Set();
        if (reloadWanted) {
          reloadWanted = false;
          await reloadAll();
        } else {
          await reread(ids);
        }
      }
      return true;
    } catch (error) {
      // The rows could not be read (the database away): answers come from Postgres until the
      // index listens again and loads afresh.
      ready = false;
      log.warn({ err: error }, 'offer index could not refresh; Find swaps asks Postgres until it reloads');
      reconnectLater();
      return false;
    }
  }

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: deps.connectionString });
    client.on('error', (error) => {
      log.warn({ err: error }, 'offer index lost its listening connection; Find swaps asks Postgres until it is back');
    });
    client.on('end', () => {
      if (listener !== client) return;
      listener = undefined;
      ready = false;
      reconnectLater();
    });
    client.on('notification', (message) => {
      if (message.channel !== OFFERS_CHANNEL) return;
      const payload = message.payload ?? RELOAD_ALL;
      if (payload.startsWith(BARRIER)) {
        const passed = barriers.get(payload.slice(BARRIER.length));
        // Every notice sent before the barrier has arrived: once they are applied, it is passed.
        if (passed) void refresh().then(passed);
        return;
      }
      if (payload === RELOAD_ALL) reloadWanted = true;
      else for (const id of payload.split(',')) pending.add(id);
      void refresh();
    });
    await client.connect();
    listener = client;
    // Listening first: a change committed while the table loads is announced, and read again.
    await client.query(`LISTEN ${OFFERS_CHANNEL}`);
    reloadWanted = true;
    pending.clear();
    if ((await refresh()) && listener === client && !closed) {
      ready = true;
      log.info({ offers: offers.size }, 'offer index loaded');
    }
  }

  let reconnectTimer: NodeJS.Timeout | undefined;
  function reconnectLater(): void {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      const old = listener;
      listener = undefined;
      void old?.end().catch(() => undefined);
      listen().catch((error: unknown) => {
        log.warn({ err: error }, 'offer index could not listen yet');
        reconnectLater();
      });
    }, RECONNECT_MS);
    reconnectTimer.unref();
  }

  /** Sends a barrier notice and waits for it to come back with every notice before it applied. */
  async function passBarrier(timeoutMs = BARRIER_TIMEOUT_MS): Promise<'passed' | 'lost' | 'not listening'> {
    if (!ready) return 'not listening';
    const token = randomUUID();
    const passed = new Promise<'passed'>((resolve) => barriers.set(token, () => resolve('passed')));
    try {
      await db.raw('SELECT pg_notify(?, ?)', [OFFERS_CHANNEL, `${BARRIER}${token}`]);
      let timer: NodeJS.Timeout | undefined;
      const lost = new Promise<'lost'>((resolve) => {
        timer = setTimeout(() => resolve('lost'), timeoutMs);
        timer.unref();
      });
      const outcome = await Promise.race([passed, lost]);
      clearTimeout(timer);
      return outcome;
    } catch {
      // The database is away: the request path finds out on its own.
      return 'not listening';
    } finally {
      barriers.delete(token);
    }
  }

  // A connection that listens but hears nothing (a transaction pooler between us and Postgres,
  // a half-open socket) would leave the index stale without an error: a barrier every
  // HEARTBEAT_MS proves the notices arrive, and one that does not come back stops the index
  // answering until it has listened again and reloaded.
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;
  const heartbeat = setInterval(() => {
    void passBarrier(Math.min(BARRIER_TIMEOUT_MS, heartbeatMs)).then((outcome) => {
      if (outcome !== 'lost' || closed) return;
      ready = false;
      log.warn('offer index is not hearing its notices; Find swaps asks Postgres until it listens again');
      reconnectLater();
    });
  }, heartbeatMs);
  heartbeat.unref();

  try {
    await listen();
  } catch (error) {
    // Find swaps still works from Postgres; the index keeps trying in the background.
    log.warn({ err: error }, 'offer index not loaded at start; Find swaps asks Postgres until it is');
    reconnectLater();
  }

  return {
    findJson(query) {
      if (!ready) return undefined;
      const { asker, trip, window } = query;
      const askerIsLtcCaptain = asker.rank === 'CP' && asker.ltc;
      const [from, to, start, end] = [window.from, window.to, trip.startDate, trip.endDate].map(dayNumber) as [number, number, number, number];
      const askerPilot = pilotNumbers.get(asker.id) ?? -1;
      // Each bucket gives a run of rows already in the answer's order; the runs are merged.
      const runs: { bucket: Bucket; rows: number[]; next: number }[] = [];
      for (const fleet of fleetsThatFly(trip.aircraft)) {
        for (const aircraft of aircraftFlownBy(asker.fleet)) {
          const bucket = buckets.get(bucketOf(asker.rank, fleet, aircraft));
          if (!bucket) continue;
          const rows = collect(bucket, from, to, askerPilot, askerIsLtcCaptain, trip.training);
          if (rows.length > 0) runs.push({ bucket, rows, next: 0 });
        }
      }
      if (runs.length === 0) return EMPTY;
      // The offers on the asker's exact dates go first, each part in the runs' order.
      const same: Offer[] = [];
      const rest: Offer[] = [];
      for (;;) {
        let first: (typeof runs)[number] | undefined;
        for (const run of runs) {
          if (run.next < run.rows.length && (!first || comesFirst(run, first))) first = run;
        }
        if (!first) break;
        const row = first.rows[first.next++]!;
        const { startDays, endDays, offers } = first.bucket;
        (startDays[row] === start && endDays[row] === end ? same : rest).push(offers[row]!);
      }
      const sameCount = same.length;
      const ordered = sameCount === 0 ? rest : same.concat(rest);
      // Written straight into one buffer: the rows are already UTF-8, nothing is encoded per request.
      let length = 1 + ordered.length + sameCount * TRUE_END.length + (ordered.length - sameCount) * FALSE_END.length;
      for (const offer of ordered) length += offer.prefix.length;
      const answer = Buffer.allocUnsafe(length);
      answer[0] = OPEN;
      let at = 1;
      // set(), not copy(): the same memcpy with less checking around it, twice as fast here.
      for (let n = 0; n < ordered.length; n += 1) {
        if (n > 0) answer[at++] = COMMA;
        const { prefix } = ordered[n]!;
        answer.set(prefix, at);
        at += prefix.length;
        const tail = n < sameCount ? TRUE_END : FALSE_END;
        answer.set(tail, at);
        at += tail.length;
      }
      answer[at] = CLOSE;
      return answer;
    },
    async catchUp() {
      await passBarrier();
    },
    status: () => ({ offers: offers.size, ready }),
    async close() {
      closed = true;
      ready = false;
      clearInterval(heartbeat);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await refreshing;
    },
  };
}

/**
 * The rows of a bucket starting inside the window (day numbers) that the asker may take. It
 * reads the bucket's flat columns, not the offers: the objects lie scattered in memory, and
 * chasing one per row cost more than all the rest of an answer.
 */
function collect(bucket: Bucket, from: number, to: number, askerPilot: number, askerIsLtcCaptain: boolean, mineIsTraining: boolean): number[] {
  const { startDays, pilots, flags } = bucket;
  const rows: number[] = [];
  for (let i = firstWhere(startDays.length, (j) => startDays[j]! >= from); i < startDays.length && startDays[i]! <= to; i += 1) {
    if (pilots[i] === askerPilot) continue;
    const flag = flags[i]!;
    if ((flag & TRAINING) !== 0 && !askerIsLtcCaptain) continue;
    if (mineIsTraining && (flag & LTC_CAPTAIN) === 0) continue;
    rows.push(i);
  }
  return rows;
}

/** Whether the next row of run `a` comes before the next row of run `b`: start, end, then trip id. */
function comesFirst(a: { bucket: Bucket; rows: number[]; next: number }, b: { bucket: Bucket; rows: number[]; next: number }): boolean {
  const i = a.rows[a.next]!;
  const j = b.rows[b.next]!;
  if (a.bucket.startDays[i] !== b.bucket.startDays[j]) return a.bucket.startDays[i]! < b.bucket.startDays[j]!;
  if (a.bucket.endDays[i] !== b.bucket.endDays[j]) return a.bucket.endDays[i]! < b.bucket.endDays[j]!;
  return a.bucket.offers[i]!.tripId < b.bucket.offers[j]!.tripId;
}

/** Whether `a` comes before `b` in an answer (same dates first aside): start date, end date, trip id. */
function inAnswerOrder(a: Offer, b: Offer): boolean {
  if (a.startDay !== b.startDay) return a.startDay < b.startDay;
  if (a.endDay !== b.endDay) return a.endDay < b.endDay;
  return a.tripId < b.tripId;
}

/** YYYY-MM-DD as days since 1970-01-01. */
function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
}

/** Binary search over 0..length: the first index that passes `test`, for a test that only ever turns true along it. */
function firstWhere(length: number, test: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}
