import type { MatchSort } from '@crewswap/proto';
import { answerWrapping, sortValue, type FoundRows, type MatchKey, type MatchPage } from '../../rules/match-page';
import type { OfferChecks } from '../read-model';
import { dayNumber, type Bucket, type Offer } from './buckets';

/** A Find swaps answer and the offers it shows (for who saw what), in its order. */
export interface FoundAnswer {
  json: Buffer;
  tripIds: string[];
  /** The same offers' versions as the index holds them now, id for id (a trip read again has a new one). */
  versions: number[];
}

const COMMA = ','.charCodeAt(0);

/** Each row's ending after `"sameDates":`, by its three flags (index: same + 2 mutual + 4 urgent), less the closing brace. */
const TAILS = Array.from({ length: 8 }, (_, n) => Buffer.from(`${Boolean(n & 1)},"mutual":${Boolean(n & 2)},"urgent":${Boolean(n & 4)}`));
const CLOSE = '}'.charCodeAt(0);

interface Run {
  bucket: Bucket;
  rows: number[];
}

/**
 * The rows an answer is made from, in date order (start, end, trip id), as two columns: each row's
 * bucket and its row in it. The offer index keeps it per search (kept-orders.ts), so that the next
 * page, or the same search again, slices it rather than merging the runs again; `groups`, the rows
 * by Urgent and same dates, is kept with it once worked out.
 */
export interface DateOrder {
  buckets: Bucket[];
  rows: number[];
  groups?: number[][];
}

/** What the answer asks of the asker's trip and of the clock, as day numbers. */
export interface AnswerQuery {
  searchedTripId: string;
  start: number;
  end: number;
  urgentFrom: number;
  urgentTo: number;
  /** Whether a row is Mutual (the buckets' rowTest of mutualOffersFor). */
  mutual: (bucket: Bucket, row: number) => boolean;
  page: MatchPage;
  /** The answer's order (relevance by default) and the legality checks of the request (issue 55). */
  sort?: MatchSort;
  checks?: OfferChecks;
}

interface Found {
  offer: Offer;
  flags: number;
}

/**
 * The Find swaps answer from bucket rows in date order (start, end, trip id; inDateOrder): in the answer's order (match-page.ts: Mutual, Urgent, same dates, then date
 * order), cut to the page, and written as the JSON text the SQL fallback gives, as UTF-8; with
 * the ids of the offers it shows, in order.
 *
 * Mutual is the one costly test of a row, and it is asked only of the rows the answer needs: a
 * first page of 50 is usually full of Mutual offers after a hundred or so of the four hundred
 * rows, and rows before a page's cursor in their group are passed over by date alone.
 */
export function writeAnswer(merged: DateOrder, query: AnswerQuery): FoundAnswer {
  const { checks } = query;
  // Offers the pilot chose not to see (legalOnly) are no part of the answer, its total included.
  const { buckets, rows } = checks?.hidden ? withoutHidden(merged, checks.hidden) : merged;
  const total = rows.length;
  const sort = query.sort ?? 'relevance';
  // Mutual of each row once it is asked: 0 not yet, 1 no, 2 yes. Mutual also means legal both
  // ways where known (issue 55): asked of the rows the swap rule finds Mutual only.
  const mutualOf = new Uint8Array(total);
  const isMutual = (i: number) => {
    if (mutualOf[i] === 0) {
      const offer = buckets[i]!.offers[rows[i]!]!;
      mutualOf[i] = query.mutual(buckets[i]!, rows[i]!) && (!checks || checks.stillMutual(offer.times, offer.pilotId)) ? 2 : 1;
    }
    return mutualOf[i] === 2;
  };
  const flagsOf = (i: number, mutual: boolean) => {
    const startDay = buckets[i]!.startDays[rows[i]!]!;
    const same = startDay === query.start && buckets[i]!.endDays[rows[i]!] === query.end;
    const urgent = startDay >= query.urgentFrom && startDay <= query.urgentTo;
    return (same ? 1 : 0) | (mutual ? 2 : 0) | (urgent ? 4 : 0);
  };

  const { page } = query;
  const limit = page === null ? Infinity : page.limit;
  const after = page?.after ?? null;
  const afterDays = after && { start: dayNumber(after.startDate), end: dayNumber(after.endDate) };
  const shown: { index: number; flags: number }[] = [];
  let more = false;
  if (sort !== 'relevance') {
    // One order by the sort's value, then by date; Mutual and Urgent are asked of the rows shown only.
    const values = new Float64Array(total);
    const order = Array.from({ length: total }, (_, i) => i);
    for (let i = 0; i < total; i += 1) values[i] = sortValue(sort, buckets[i]!.offers[rows[i]!]!);
    // Already in date order: a stable sort by value keeps it within equal values.
    if (sort !== 'start') order.sort((a, b) => values[a]! - values[b]!);
    let k = 0;
    if (after && afterDays) {
      while (k < total && !(values[order[k]!]! > after.value || (values[order[k]!] === after.value && datedAfter(buckets[order[k]!]!, rows[order[k]!]!, afterDays, after.tripId)))) k += 1;
    }
    for (; k < total; k += 1) {
      if (shown.length === limit) {
        more = true;
        break;
      }
      shown.push({ index: order[k]!, flags: flagsOf(order[k]!, isMutual(order[k]!)) });
    }
  } else {
    // Urgent and same dates are two comparisons: each row goes to its group by them at once, in
    // date order. Group g: (urgent ? 0 : 2) + (same ? 0 : 1), the answer's order within Mutual and within the rest.
    // Kept with the rows when they are all of them (nothing hidden): the same search again reuses them.
    let dateGroups = rows === merged.rows ? merged.groups : undefined;
    if (!dateGroups) {
      dateGroups = [[], [], [], []];
      for (let i = 0; i < total; i += 1) {
        const flags = flagsOf(i, false);
        dateGroups[(flags & 4 ? 0 : 2) + (flags & 1 ? 0 : 1)]!.push(i);
      }
      if (rows === merged.rows) merged.groups = dateGroups;
    }
    // The answer's eight groups in order, rank r: Mutual first (r < 4), then the date groups.
    const firstRank = after ? (after.mutual ? 0 : 4) + (after.urgent ? 0 : 2) + (after.sameDates ? 0 : 1) : 0;
    walk: for (let rank = firstRank; rank < 8; rank += 1) {
      const mutual = rank < 4;
      const group = dateGroups[rank % 4]!;
      const flags = (rank % 2 === 0 ? 1 : 0) | (mutual ? 2 : 0) | (rank % 4 < 2 ? 4 : 0);
      let k = 0;
      if (afterDays && rank === firstRank) {
        while (k < group.length && !datedAfter(buckets[group[k]!]!, rows[group[k]!]!, afterDays, after!.tripId)) k += 1;
      }
      for (; k < group.length; k += 1) {
        const index = group[k]!;
        if (isMutual(index) !== mutual) continue;
        if (shown.length === limit) {
          more = true;
          break walk;
        }
        shown.push({ index, flags });
      }
    }
  }

  const offerOf = (n: number) => buckets[shown[n]!.index]!.offers[rows[shown[n]!.index]!]!;
  const lastShown = shown.length > 0 ? { offer: offerOf(shown.length - 1), flags: shown.at(-1)!.flags } : null;
  const found: FoundRows = { total, last: lastShown && keyOf(lastShown, sort), more };
  const { head, tail } = answerWrapping(query.searchedTripId, page, found);

  // Written straight into one buffer: the rows are already UTF-8, nothing is encoded per request.
  const headBytes = Buffer.from(head);
  const tailBytes = Buffer.from(tail);
  let length = headBytes.length + tailBytes.length + Math.max(0, shown.length - 1);
  // The rows' legality (issue 55), the one part written per request.
  // Written into the answer as they are: encoding each into a buffer of its own first cost an allocation a row.
  const ends = shown.map((_, n) => (checks ? checks.rowEnd(offerOf(n).times) : ''));
  for (let n = 0; n < shown.length; n += 1) length += offerOf(n).prefix.length + TAILS[shown[n]!.flags]!.length + Buffer.byteLength(ends[n]!) + 1;
  const answer = Buffer.allocUnsafe(length);
  answer.set(headBytes, 0);
  let at = headBytes.length;
  const tripIds: string[] = [];
  const versions: number[] = [];
  // set(), not copy(): the same memcpy with less checking around it, twice as fast here.
  for (let n = 0; n < shown.length; n += 1) {
    if (n > 0) answer[at++] = COMMA;
    const offer = offerOf(n);
    answer.set(offer.prefix, at);
    at += offer.prefix.length;
    const rowTail = TAILS[shown[n]!.flags]!;
    answer.set(rowTail, at);
    at += rowTail.length;
    at += answer.write(ends[n]!, at);
    answer[at++] = CLOSE;
    tripIds.push(offer.tripId);
    versions.push(offer.version);
  }
  answer.set(tailBytes, at);
  return { json: answer, tripIds, versions };
}

/**
 * The runs' rows merged into one date order, as two columns (each row's bucket and its row in it).
 * Each run's next row is kept beside the runs: copying each run into a cursor object cost about
 * a quarter of the index's time per answer.
 */
export function inDateOrder(runs: Run[]): DateOrder {
  if (runs.length === 1) return { buckets: runs[0]!.rows.map(() => runs[0]!.bucket), rows: runs[0]!.rows };
  const buckets: Bucket[] = [];
  const rows: number[] = [];
  const next = runs.map(() => 0);
  for (;;) {
    let first = -1;
    for (let r = 0; r < runs.length; r += 1) {
      if (next[r]! < runs[r]!.rows.length && (first < 0 || comesFirst(runs[r]!, next[r]!, runs[first]!, next[first]!))) first = r;
    }
    if (first < 0) return { buckets, rows };
    buckets.push(runs[first]!.bucket);
    rows.push(runs[first]!.rows[next[first]!++]!);
  }
}

/** Whether a row comes after the cursor's row in date order (start, end, trip id). */
function datedAfter(bucket: Bucket, row: number, after: { start: number; end: number }, afterTripId: string): boolean {
  const start = bucket.startDays[row]!;
  if (start !== after.start) return start > after.start;
  const end = bucket.endDays[row]!;
  if (end !== after.end) return end > after.end;
  return bucket.offers[row]!.tripId > afterTripId;
}

function keyOf({ offer, flags }: Found, sort: MatchSort): MatchKey {
  return {
    mutual: (flags & 2) !== 0,
    urgent: (flags & 4) !== 0,
    sameDates: (flags & 1) !== 0,
    startDate: offer.startDate,
    endDate: offer.endDate,
    tripId: offer.tripId,
    sort,
    value: sortValue(sort, offer),
  };
}

/** The merged rows less those the request leaves out. */
function withoutHidden(merged: { buckets: Bucket[]; rows: number[] }, hidden: (offer: Offer['times']) => boolean): { buckets: Bucket[]; rows: number[] } {
  const buckets: Bucket[] = [];
  const rows: number[] = [];
  for (let i = 0; i < merged.rows.length; i += 1) {
    if (hidden(merged.buckets[i]!.offers[merged.rows[i]!]!.times)) continue;
    buckets.push(merged.buckets[i]!);
    rows.push(merged.rows[i]!);
  }
  return { buckets, rows };
}

/** Whether row `a.rows[ai]` comes before row `b.rows[bi]`: start, end, then trip id. */
function comesFirst(a: Run, ai: number, b: Run, bi: number): boolean {
  const i = a.rows[ai]!;
  const j = b.rows[bi]!;
  if (a.bucket.startDays[i] !== b.bucket.startDays[j]) return a.bucket.startDays[i]! < b.bucket.startDays[j]!;
  if (a.bucket.endDays[i] !== b.bucket.endDays[j]) return a.bucket.endDays[i]! < b.bucket.endDays[j]!;
  return a.bucket.offers[i]!.tripId < b.bucket.offers[j]!.tripId;
}
