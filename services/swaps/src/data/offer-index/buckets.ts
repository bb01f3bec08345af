import { MAX_WINDOW_DAYS, windowOf, type Sector, type TripTimes, type WindowArithmetic } from '@crewswap/proto';
import type { Constraint } from '../../rules/swap-rule';

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
  search_start_date: string | null;
  search_end_date: string | null;
  day_range: number | null;
  /** The owner's other trips as day numbers, in pairs [from, to, ...]. */
  other_trip_days: number[];
  /** Duty times (issue 55), instants as the contract writes them; null where not known. */
  report_at: string | null;
  release_at: string | null;
  sectors: Sector[] | null;
  block_minutes: number | null;
  flight_no_start: string | null;
}

export interface Offer {
  tripId: string;
  /** This row as loaded: a trip read again (changed, withdrawn and offered again) gets a new number. */
  version: number;
  pilotId: string;
  /** Start and end as day numbers: comparing numbers in the scan is several times cheaper than comparing date strings. */
  startDay: number;
  endDay: number;
  /** `{"trip":…,"pilot":…,"sameDates":` as UTF-8: the answer's row, less the values that depend on the asker. */
  prefix: Buffer;
  bucket: string;
  /** What Mutual asks of the offer: its own search range as day numbers (NaN: not set), its owner's day range (NaN: not set), the owner's other trips. */
  searchFrom: number;
  searchTo: number;
  dayRange: number;
  otherTrips: DaySpans;
  startDate: string;
  endDate: string;
  /** What the flight time limitations check reads (rules/legality.ts), and Find swaps' sort by block. */
  times: TripTimes;
  blockMinutes: number | null;
}

/**
 * One bucket's offers in the answer's order (same dates first aside): start date, end date, trip
 * id; beside them, row for row, what the scan reads.
 */
export interface Bucket {
  rank: string;
  fleet: string;
  aircraft: string;
  offers: Offer[];
  startDays: number[];
  endDays: number[];
  pilots: number[];
  flags: number[];
}

/** An offer's flags as bits, for the scan to test them all at once (the offers table holds no standby duty). */
const FLAG_BITS = { training: 1, ltcCaptain: 2, standby: 4 } as const;

const bucketOf = (rank: string, fleet: string, aircraft: string) => `${rank}|${fleet}|${aircraft}`;

/** Versions are unique in the process, across reloads. */
let lastVersion = 0;

/** The offers, in buckets by rank, fleet and aircraft: the swap rule's equalities, answered by a lookup. */
export function createBuckets() {
  const offers = new Map<string, Offer>();
  const buckets = new Map<string, Bucket>();
  /** Pilot ids as small numbers, for the scan to compare. */
  const pilotNumbers = new Map<string, number>();
  const pilotNumberOf = (id: string) => pilotNumbers.get(id) ?? -1;
  /** Counts changes: what was found before a change may not be what is found after it. */
  let generation = 0;
  const pilotNumber = (id: string) => {
    let n = pilotNumbers.get(id);
    if (n === undefined) pilotNumbers.set(id, (n = pilotNumbers.size));
    return n;
  };

  function remove(tripId: string): void {
    const offer = offers.get(tripId);
    if (!offer) return;
    generation += 1;
    offers.delete(tripId);
    const bucket = buckets.get(offer.bucket)!;
    const at = bucket.offers.indexOf(offer);
    for (const column of [bucket.offers, bucket.startDays, bucket.endDays, bucket.pilots, bucket.flags]) column.splice(at, 1);
  }

  return {
    put(row: OfferRow): void {
      remove(row.trip_id);
      generation += 1;
      const offer: Offer = {
        tripId: row.trip_id,
        version: (lastVersion += 1),
        pilotId: row.pilot_id,
        startDay: dayNumber(row.start_date),
        endDay: dayNumber(row.end_date),
        prefix: Buffer.from(`{"trip":${row.trip_json},"pilot":${row.pilot_json},"sameDates":`),
        bucket: bucketOf(row.rank, row.fleet, row.aircraft),
        searchFrom: row.search_start_date === null ? NaN : dayNumber(row.search_start_date),
        searchTo: row.search_end_date === null ? NaN : dayNumber(row.search_end_date),
        dayRange: row.day_range ?? NaN,
        otherTrips: daySpans(row.other_trip_days),
        startDate: row.start_date,
        endDate: row.end_date,
        times: {
          id: row.trip_id,
          flightNoStart: row.flight_no_start ?? '',
          startDate: row.start_date,
          endDate: row.end_date,
          reportAt: row.report_at,
          releaseAt: row.release_at,
          sectors: row.sectors,
        },
        blockMinutes: row.block_minutes,
      };
      offers.set(offer.tripId, offer);
      let bucket = buckets.get(offer.bucket);
      if (!bucket) {
        bucket = { rank: row.rank, fleet: row.fleet, aircraft: row.aircraft, offers: [], startDays: [], endDays: [], pilots: [], flags: [] };
        buckets.set(offer.bucket, bucket);
      }
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
      generation += 1;
      offers.clear();
      buckets.clear();
    },
    size: () => offers.size,
    generation: () => generation,
    /** The constraint as a test of single rows (Mutual, asked of the rows find() gave); settingDays for the offers' own windows. */
    rowTest(constraint: Constraint, settingDays: number): (bucket: Bucket, row: number) => boolean {
      return rowTest(constraint, compile(constraint, pilotNumberOf), settingDays);
    },
    /**
     * The rows of every bucket the constraint allows that it admits, one run per bucket, each in
     * the answer's order.
     */
    find(constraint: Constraint): { bucket: Bucket; rows: number[] }[] {
      if (!constraint.possible) return [];
      if (constraint.windowCovers !== null || constraint.missesDays !== null || constraint.freeOn !== null) {
        throw new Error('find() scans for Find swaps rows by an asker window; test the other parts row by row (rowTest)');
      }
      const scan = compile(constraint, pilotNumberOf);
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
  let care = 0;
  let want = 0;
  for (const [flag, bit] of Object.entries(FLAG_BITS) as [keyof typeof FLAG_BITS, number][]) {
    const value = constraint.flags[flag];
    if (value === null) continue;
    care |= bit;
    if (value) want |= bit;
  }
  const within = constraint.startsWithin;
  return {
    from: within ? dayNumber(within.from) : -Infinity,
    to: within ? dayNumber(within.to) : Infinity,
    notPilot: constraint.notPilotId === null ? -1 : pilotNumberOf(constraint.notPilotId),
    care,
    want,
  };
}

/** Dates and day counts as numbers, NaN not set: windowOf in the index. */
const DAY_NUMBERS: WindowArithmetic<number, number> = {
  firstDate: (date, fallback) => (Number.isNaN(date) ? fallback : date),
  firstDays: (days, fallback) => (Number.isNaN(days) ? fallback : days),
  plus: (date, days) => date + days,
  minus: (date, days) => date - days,
  later: Math.max,
  earlier: Math.min,
};

/**
 * A constraint as a test of one row: the scan's parts, the bucket's rank, fleet and aircraft, and
 * the parts only rows can answer (the offer's own window covering a date, the days it must miss,
 * its owner's other trips), as swap-rule-sql.ts renders them.
 */
function rowTest(constraint: Constraint, scan: Scan, settingDays: number): (bucket: Bucket, row: number) => boolean {
  if (!constraint.possible) return () => false;
  const covers = constraint.windowCovers === null ? NaN : dayNumber(constraint.windowCovers);
  const misses = daySpans((constraint.missesDays ?? []).flatMap((days) => [dayNumber(days.from), dayNumber(days.to)]));
  const freeFrom = constraint.freeOn ? dayNumber(constraint.freeOn.from) : NaN;
  const freeTo = constraint.freeOn ? dayNumber(constraint.freeOn.to) : NaN;
  const allowed = new Map<Bucket, boolean>();
  return (bucket, row) => {
    let inBucket = allowed.get(bucket);
    if (inBucket === undefined) {
      inBucket =
        (constraint.rank as string[]).includes(bucket.rank) && (constraint.fleet as string[]).includes(bucket.fleet) && (constraint.aircraft as string[]).includes(bucket.aircraft);
      allowed.set(bucket, inBucket);
    }
    if (!inBucket) return false;
    const start = bucket.startDays[row]!;
    const end = bucket.endDays[row]!;
    if (start < scan.from || start > scan.to || bucket.pilots[row] === scan.notPilot || (bucket.flags[row]! & scan.care) !== scan.want) return false;
    const offer = bucket.offers[row]!;
    if (!Number.isNaN(covers)) {
      // The offer's own window: its range, else its owner's day range, else the setting.
      const { from, to } = windowOf(DAY_NUMBERS, {
        start,
        searchFrom: offer.searchFrom,
        searchTo: offer.searchTo,
        pilotDays: offer.dayRange,
        settingDays,
        maxDays: MAX_WINDOW_DAYS,
      });
      if (covers < from || covers > to) return false;
    }
    if (overlapsAny(misses, start, end)) return false;
    if (!Number.isNaN(freeFrom) && overlapsAny(offer.otherTrips, freeFrom, freeTo)) return false;
    return true;
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

/**
 * Runs of days (a pilot's trips as day numbers), for telling whether any of them shares a day with
 * a trip in a binary search instead of a look at each: Mutual asks it of every row, of the asker's
 * forty-odd other trips and of the owner's. Starts in order, and beside each the latest end of the
 * runs up to it, since runs may overlap (a standby duty and a trip on one day).
 */
export interface DaySpans {
  starts: Int32Array;
  latestEnds: Int32Array;
}

/** Runs given as [from, to, from, to, ...] day numbers, in any order. */
export function daySpans(pairs: readonly number[]): DaySpans {
  const runs = Array.from({ length: pairs.length / 2 }, (_, i) => [pairs[2 * i]!, pairs[2 * i + 1]!] as const).sort((a, b) => a[0] - b[0]);
  const starts = Int32Array.from(runs, ([from]) => from);
  const latestEnds = new Int32Array(runs.length);
  runs.forEach(([, to], i) => (latestEnds[i] = i === 0 ? to : Math.max(latestEnds[i - 1]!, to)));
  return { starts, latestEnds };
}

/** Whether a run shares a day with from..to: of the runs starting by `to`, the latest end reaches `from`. */
export function overlapsAny({ starts, latestEnds }: DaySpans, from: number, to: number): boolean {
  // firstWhere's search, written out with no closure: it runs twice for every row of an answer.
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! > to) high = middle;
    else low = middle + 1;
  }
  return low > 0 && latestEnds[low - 1]! >= from;
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
