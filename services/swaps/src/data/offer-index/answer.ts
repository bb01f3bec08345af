import { answerWrapping, type FoundRows, type MatchKey, type MatchPage } from '../../domain/match-page';
import type { Bucket, Offer } from './buckets';

/** A Find swaps answer and the offers it shows (for who saw what), in its order. */
export interface FoundAnswer {
  json: Buffer;
  tripIds: string[];
}

const COMMA = ','.charCodeAt(0);

/** Each row's ending after `"sameDates":`, by its three flags (index: same + 2 mutual + 4 urgent). */
const TAILS = Array.from({ length: 8 }, (_, n) => Buffer.from(`${Boolean(n & 1)},"mutual":${Boolean(n & 2)},"urgent":${Boolean(n & 4)}}`));

interface Run {
  bucket: Bucket;
  rows: number[];
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
}

interface Found {
  offer: Offer;
  flags: number;
}

/**
 * The Find swaps answer from runs of bucket rows each in date order (start, end, trip id):
 * merged, then in the answer's order (match-page.ts: Mutual, Urgent, same dates, then date
 * order), cut to the page, and written as the JSON text the SQL fallback gives, as UTF-8; with
 * the ids of the offers it shows, in order.
 */
export function writeAnswer(runs: Run[], query: AnswerQuery): FoundAnswer {
  // Eight groups by (Mutual, Urgent, same dates), each filled in date order: their concatenation
  // in priority order is the answer's order, with no sort.
  const groups: Found[][] = Array.from({ length: 8 }, () => []);
  // Each run's next row, kept beside the runs: copying each run into a cursor object cost about
  // a quarter of the index's time per answer.
  const next = runs.map(() => 0);
  for (;;) {
    let first = -1;
    for (let r = 0; r < runs.length; r += 1) {
      if (next[r]! < runs[r]!.rows.length && (first < 0 || comesFirst(runs[r]!, next[r]!, runs[first]!, next[first]!))) first = r;
    }
    if (first < 0) break;
    const { bucket, rows } = runs[first]!;
    const row = rows[next[first]!++]!;
    const startDay = bucket.startDays[row]!;
    const same = startDay === query.start && bucket.endDays[row] === query.end;
    const urgent = startDay >= query.urgentFrom && startDay <= query.urgentTo;
    const mutual = query.mutual(bucket, row);
    const flags = (same ? 1 : 0) | (mutual ? 2 : 0) | (urgent ? 4 : 0);
    // Group 0 first: Mutual and Urgent and same dates; group 7 last.
    groups[(mutual ? 0 : 4) + (urgent ? 0 : 2) + (same ? 0 : 1)]!.push({ offer: bucket.offers[row]!, flags });
  }
  const ordered = groups.flat();

  const { page } = query;
  let from = 0;
  if (page?.after) {
    const after = page.after;
    while (from < ordered.length && !isAfter(keyOf(ordered[from]!), after)) from += 1;
  }
  const to = page === null ? ordered.length : Math.min(ordered.length, from + page.limit);
  const found: FoundRows = { total: ordered.length, last: to > from ? keyOf(ordered[to - 1]!) : null, more: to < ordered.length };
  const { head, tail } = answerWrapping(query.searchedTripId, page, found);

  // Written straight into one buffer: the rows are already UTF-8, nothing is encoded per request.
  const headBytes = Buffer.from(head);
  const tailBytes = Buffer.from(tail);
  let length = headBytes.length + tailBytes.length + Math.max(0, to - from - 1);
  for (let n = from; n < to; n += 1) length += ordered[n]!.offer.prefix.length + TAILS[ordered[n]!.flags]!.length;
  const answer = Buffer.allocUnsafe(length);
  answer.set(headBytes, 0);
  let at = headBytes.length;
  // set(), not copy(): the same memcpy with less checking around it, twice as fast here.
  for (let n = from; n < to; n += 1) {
    if (n > from) answer[at++] = COMMA;
    const { offer, flags } = ordered[n]!;
    answer.set(offer.prefix, at);
    at += offer.prefix.length;
    const rowTail = TAILS[flags]!;
    answer.set(rowTail, at);
    at += rowTail.length;
  }
  answer.set(tailBytes, at);
  const tripIds: string[] = [];
  for (let n = from; n < to; n += 1) tripIds.push(ordered[n]!.offer.tripId);
  return { json: answer, tripIds };
}

function keyOf({ offer, flags }: Found): MatchKey {
  return { mutual: (flags & 2) !== 0, urgent: (flags & 4) !== 0, sameDates: (flags & 1) !== 0, startDate: offer.startDate, endDate: offer.endDate, tripId: offer.tripId };
}

/** Whether key `a` comes after key `b` in the answer's order (match-page.ts). */
function isAfter(a: MatchKey, b: MatchKey): boolean {
  if (a.mutual !== b.mutual) return b.mutual;
  if (a.urgent !== b.urgent) return b.urgent;
  if (a.sameDates !== b.sameDates) return b.sameDates;
  if (a.startDate !== b.startDate) return a.startDate > b.startDate;
  if (a.endDate !== b.endDate) return a.endDate > b.endDate;
  return a.tripId > b.tripId;
}

/** Whether row `a.rows[ai]` comes before row `b.rows[bi]`: start, end, then trip id. */
function comesFirst(a: Run, ai: number, b: Run, bi: number): boolean {
  const i = a.rows[ai]!;
  const j = b.rows[bi]!;
  if (a.bucket.startDays[i] !== b.bucket.startDays[j]) return a.bucket.startDays[i]! < b.bucket.startDays[j]!;
  if (a.bucket.endDays[i] !== b.bucket.endDays[j]) return a.bucket.endDays[i]! < b.bucket.endDays[j]!;
  return a.bucket.offers[i]!.tripId < b.bucket.offers[j]!.tripId;
}
