import type { Constraint } from '../../domain/swap-rule';

/** An offers table row, as the index reads it. */
export interface OfferRow {
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

export interface Offer {
  tripId: string;
  pilotId: string;
  /** Start and end as day numbers: comparing numbers in the scan is several times cheaper than comparing date strings. */
  startDay: number;
  endDay: number;
  /** `{"trip":…,"pilot":…,"sameDates":` as UTF-8: the answer's row, less the one value that depends on the asker. */
  prefix: Buffer;
  bucket: string;
}

/**
 * One bucket's offers in the answer's order (same dates first aside): start date, end date, trip
 * id; beside them, row for row, what the scan reads.
 */
export interface Bucket {
  offers: Offer[];
  startDays: number[];
  endDays: number[];
  pilots: number[];
  flags: number[];
}

/** An offer's flags as bits, for the scan to test them all at once (the offers table holds no standby duty). */
const FLAG_BITS = { training: 1, ltcCaptain: 2, standby: 4 } as const;

const bucketOf = (rank: string, fleet: string, aircraft: string) => `${rank}|${fleet}|${aircraft}`;

/** The offers, in buckets by rank, fleet and aircraft: the swap rule's equalities, answered by a lookup. */
export function createBuckets() {
  const offers = new Map<string, Offer>();
  const buckets = new Map<string, Bucket>();
  /** Pilot ids as small numbers, for the scan to compare. */
  const pilotNumbers = new Map<string, number>();
  const pilotNumber = (id: string) => {
    let n = pilotNumbers.get(id);
    if (n === undefined) pilotNumbers.set(id, (n = pilotNumbers.size));
    return n;
  };

  function remove(tripId: string): void {
    const offer = offers.get(tripId);
    if (!offer) return;
    offers.delete(tripId);
    const bucket = buckets.get(offer.bucket)!;
    const at = bucket.offers.indexOf(offer);
    for (const column of [bucket.offers, bucket.startDays, bucket.endDays, bucket.pilots, bucket.flags]) column.splice(at, 1);
  }

  return {
    put(row: OfferRow): void {
      remove(row.trip_id);
      const offer: Offer = {
        tripId: row.trip_id,
        pilotId: row.pilot_id,
        startDay: dayNumber(row.start_date),
        endDay: dayNumber(row.end_date),
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
      bucket.flags.splice(at, 0, (row.training ? FLAG_BITS.training : 0) | (row.ltc_captain ? FLAG_BITS.ltcCaptain : 0));
    },
    remove,
    clear(): void {
      offers.clear();
      buckets.clear();
    },
    size: () => offers.size,
    /**
     * The rows of every bucket the constraint allows that it admits, one run per bucket, each in
     * the answer's order.
     */
    find(constraint: Constraint): { bucket: Bucket; rows: number[] }[] {
      if (!constraint.possible) return [];
      const scan = compile(constraint, (id) => pilotNumbers.get(id) ?? -1);
      const runs: { bucket: Bucket; rows: number[] }[] = [];
      for (const rank of constraint.rank) {
        for (const fleet of constraint.fleet) {
          for (const aircraft of constraint.aircraft) {
            const bucket = buckets.get(bucketOf(rank, fleet, aircraft));
            if (!bucket) continue;
            const rows = collect(bucket, scan);
            if (rows.length > 0) runs.push({ bucket, rows });
          }
        }
      }
      return runs;
    },
  };
}
export type Buckets = ReturnType<typeof createBuckets>;

/** A constraint on offers, as the scan reads it: a range of start days, a pilot to skip, flag bits. */
interface Scan {
  from: number;
  to: number;
  notPilot: number;
  /** The flag bits the constraint names, and the values it wants of them. */
  care: number;
  want: number;
}

function compile(constraint: Constraint, pilotNumberOf: (id: string) => number): Scan {
  const { start } = constraint;
  if (start && !('within' in start)) throw new Error('the offer index answers Find swaps only: an offer window, not an asker');
  let care = 0;
  let want = 0;
  for (const [flag, bit] of Object.entries(FLAG_BITS) as [keyof typeof FLAG_BITS, number][]) {
    const value = constraint.flags[flag];
    if (value === null) continue;
    care |= bit;
    if (value) want |= bit;
  }
  return {
    from: start ? dayNumber(start.within.from) : -Infinity,
    to: start ? dayNumber(start.within.to) : Infinity,
    notPilot: constraint.notPilotId === null ? -1 : pilotNumberOf(constraint.notPilotId),
    care,
    want,
  };
}

/**
 * The rows of a bucket starting inside the window that the scan admits. It reads the bucket's
 * flat columns, not the offers: the objects lie scattered in memory, and chasing one per row cost
 * more than all the rest of an answer.
 */
function collect(bucket: Bucket, scan: Scan): number[] {
  const { startDays, pilots, flags } = bucket;
  const { to, notPilot, care, want } = scan;
  const rows: number[] = [];
  for (let i = firstWhere(startDays.length, (j) => startDays[j]! >= scan.from); i < startDays.length && startDays[i]! <= to; i += 1) {
    if (pilots[i] === notPilot || (flags[i]! & care) !== want) continue;
    rows.push(i);
  }
  return rows;
}

/** Whether `a` comes before `b` in an answer (same dates first aside): start date, end date, trip id. */
function inAnswerOrder(a: Offer, b: Offer): boolean {
  if (a.startDay !== b.startDay) return a.startDay < b.startDay;
  if (a.endDay !== b.endDay) return a.endDay < b.endDay;
  return a.tripId < b.tripId;
}

/** YYYY-MM-DD as days since 1970-01-01. */
export function dayNumber(date: string): number {
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
