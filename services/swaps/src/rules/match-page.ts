import { badRequest } from '@crewswap/kit';
import { MATCH_SORTS, type MatchSort } from '@crewswap/proto';
import { z } from 'zod';

/**
 * Where a Find swaps row stands in the answer's order (relevance): Mutual first, then Urgent, then
 * by date as the spec lists them (same dates first, then start date, end date; the trip id last,
 * so that no two rows tie).
 */
export interface MatchKey {
  mutual: boolean;
  urgent: boolean;
  sameDates: boolean;
  startDate: string;
  endDate: string;
  tripId: string;
  /**
   * The other orders (issue 55) put rows by `value` first, then by date as above, Mutual and
   * Urgent aside: 'start' none (0), 'block' minus the block minutes (unknown last: 1), 'daysAway' the days.
   */
  sort: MatchSort;
  value: number;
}

/** A row's sort value in an order other than relevance (MatchKey.value). */
export function sortValue(sort: MatchSort, row: { startDay: number; endDay: number; blockMinutes: number | null }): number {
  if (sort === 'block') return row.blockMinutes === null ? 1 : -row.blockMinutes;
  if (sort === 'daysAway') return row.endDay - row.startDay + 1;
  return 0;
}

/** A page of Find swaps: at most `limit` rows, those after `after` in the answer's order. Null: the whole list. */
export type MatchPage = { limit: number; after: MatchKey | null } | null;

/** What either source of offers found, less the rows' text. */
export interface FoundRows {
  /** Rows in the whole answer. */
  total: number;
  /** The last row given, for the next page's cursor. */
  last: MatchKey | null;
  /** Whether rows remain after the last one given. */
  more: boolean;
}

export const PAGE_MESSAGES = {
  limit: 'Limit must be a whole number from 1 to 200.',
  cursor: 'This list has changed or the link is not valid. Please search again.',
  cursorWithoutLimit: 'A cursor needs a limit.',
} as const;

const ShownRows = z.array(z.object({ trip: z.object({ id: z.string() }) }));
/** A Find swaps answer's text: the whole list (the spec's shape) or a page of it. */
const AnswerRows = z.union([ShownRows, z.object({ matches: ShownRows })]);

/** The ids of the offers an answer's JSON text shows, in order (the SQL fallback's answer, which comes as text alone). */
export function shownTripIds(json: string): string[] {
  const parsed = AnswerRows.parse(JSON.parse(json));
  return (Array.isArray(parsed) ? parsed : parsed.matches).map((row) => row.trip.id);
}

const CursorKey = z.union([
  z.tuple([z.uuid(), z.boolean(), z.boolean(), z.boolean(), z.iso.date(), z.iso.date(), z.uuid()]),
  z.tuple([z.uuid(), z.boolean(), z.boolean(), z.boolean(), z.iso.date(), z.iso.date(), z.uuid(), z.enum(MATCH_SORTS), z.number().int()]),
]);

/**
 * The cursor: opaque to the app (base64url of the searched trip and the last row's key). It
 * names the trip so that a cursor is refused on another trip's list.
 */
export function encodeCursor(searchedTripId: string, key: MatchKey): string {
  const value: z.infer<typeof CursorKey> =
    key.sort === 'relevance'
      ? [searchedTripId, key.mutual, key.urgent, key.sameDates, key.startDate, key.endDate, key.tripId]
      : [searchedTripId, key.mutual, key.urgent, key.sameDates, key.startDate, key.endDate, key.tripId, key.sort, key.value];
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The key a cursor carries; 400 when it is not one of ours, belongs to another trip's list or to another order. */
export function decodeCursor(searchedTripId: string, cursor: string, sort: MatchSort = 'relevance'): MatchKey {
  let read: unknown;
  try {
    read = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(PAGE_MESSAGES.cursor);
  }
  const parsed = CursorKey.safeParse(read);
  if (!parsed.success || parsed.data[0] !== searchedTripId) throw badRequest(PAGE_MESSAGES.cursor);
  const [, mutual, urgent, sameDates, startDate, endDate, tripId, keySort = 'relevance', value = 0] = parsed.data;
  if (keySort !== sort) throw badRequest(PAGE_MESSAGES.cursor);
  return { mutual, urgent, sameDates, startDate, endDate, tripId, sort: keySort, value };
}

/**
 * The text around the rows: the spec's SwapMatch[] for the whole list, else a SwapMatchPage.
 * Both sources of offers wrap their rows with it, so they answer the same bytes.
 */
export function answerWrapping(searchedTripId: string, page: MatchPage, found: FoundRows): { head: string; tail: string } {
  if (page === null) return { head: '[', tail: ']' };
  const next = found.more && found.last ? JSON.stringify(encodeCursor(searchedTripId, found.last)) : 'null';
  return { head: '{"matches":[', tail: `],"total":${found.total},"nextCursor":${next}}` };
}
