/**
 * The facts of who can swap with whom, each defined once with no zod, so that swaps (its rule, its
 * SQL, its offer index), trips and the web app all derive from the same definition (issue 52).
 * The rule's clauses themselves are swaps' SWAP_RULE.
 */
import { AIRCRAFT, FLEETS } from './constants';
import { addDays, daysBetween } from './dates';

type Fleet = (typeof FLEETS)[number];
type Aircraft = (typeof AIRCRAFT)[number];

/** The aircraft a fleet's pilots fly (decisions.md): B787, A330 and A350 pilots their own type, SFF pilots A330, A350 or SFF. */
const FLOWN_BY_FLEET: Record<Fleet, readonly Aircraft[]> = {
  A330: ['A330'],
  A350: ['A350'],
  B787: ['B787'],
  SFF: ['A330', 'A350', 'SFF'],
};

const isFleet = (fleet: string | undefined): fleet is Fleet => (FLEETS as readonly (string | undefined)[]).includes(fleet);

/** The aircraft a fleet's pilots fly; an unknown fleet may choose any. */
export function aircraftFlownBy(fleet: string | undefined): readonly Aircraft[] {
  return isFleet(fleet) ? FLOWN_BY_FLEET[fleet] : AIRCRAFT;
}

/** The fleets whose pilots fly this aircraft. */
export function fleetsThatFly(aircraft: string): Fleet[] {
  return FLEETS.filter((fleet) => (FLOWN_BY_FLEET[fleet] as readonly string[]).includes(aircraft));
}

/**
 * An LTC captain: a captain with the LTC (trainer) flag. An LTC flag on a first officer (left from
 * a rank change) counts for nothing. Only LTC captains may mark trips as training, and fly and see
 * training trips offered for swap. Written as the pilot fields and their values, so that swaps'
 * SQL renders the very same test (ltcCaptainSql).
 */
export const LTC_CAPTAIN = { rank: 'CP', ltc: true } as const;

export function isLtcCaptain(pilot: { rank: string | null; ltc: boolean }): boolean {
  return (Object.keys(LTC_CAPTAIN) as (keyof typeof LTC_CAPTAIN)[]).every((field) => pilot[field] === LTC_CAPTAIN[field]);
}

/** No search window reaches further than the largest range an administrator may set. */
export const MAX_WINDOW_DAYS = 30;
export const DEFAULT_SWAP_SEARCH_DAYS = 4;

/** The `swap_search_days` setting as a number of days; anything unreadable falls back to the default. */
export function parseSwapSearchDays(value: string | undefined): number {
  const days = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(days) || days < 0) return DEFAULT_SWAP_SEARCH_DAYS;
  return Math.min(days, MAX_WINDOW_DAYS);
}

/** Days either side of a trip's start its swap window spans: the pilot's own day range, else the setting. */
export function swapWindowDays(pilotSearchDayRange: number | null | undefined, setting: string | undefined): number {
  return pilotSearchDayRange ?? parseSwapSearchDays(setting);
}

export interface SwapWindow {
  from: string;
  to: string;
}

/**
 * The sums a window is worked out with, in one form of dates (D) and day counts (N): ISO strings
 * here, SQL expressions in swaps' queries, day numbers in its offer index. Each form has its own
 * "not set" (null, SQL NULL, NaN), which `first*` passes over.
 */
export interface WindowArithmetic<D, N> {
  firstDate(date: D, fallback: D): D;
  firstDays(days: N, fallback: N): N;
  plus(date: D, days: N): D;
  minus(date: D, days: N): D;
  later(a: D, b: D): D;
  earlier(a: D, b: D): D;
}

/** What a trip's window is made of, in one form of dates and day counts. */
export interface WindowTerms<D, N> {
  start: D;
  /** The trip's own search range, either bound possibly not set. */
  searchFrom: D;
  searchTo: D;
  /** The pilot's day range (possibly not set), else the setting's. */
  pilotDays: N;
  settingDays: N;
  /** The furthest reach: MAX_WINDOW_DAYS in that form. */
  maxDays: N;
}

/**
 * The dates a trip's swap partners may start on, the only place it is written. Each bound comes
 * from the first that is set: the trip's own search range, else the pilot's day range, else the
 * setting, in days either side of the trip start (0 = the same start date). Each bound is cut to
 * the furthest reach, not moved into it: a range wholly past it finds nothing.
 */
export function windowOf<D, N>(math: WindowArithmetic<D, N>, terms: WindowTerms<D, N>): { from: D; to: D } {
  const days = math.firstDays(terms.pilotDays, terms.settingDays);
  return {
    from: math.later(math.firstDate(terms.searchFrom, math.minus(terms.start, days)), math.minus(terms.start, terms.maxDays)),
    to: math.earlier(math.firstDate(terms.searchTo, math.plus(terms.start, days)), math.plus(terms.start, terms.maxDays)),
  };
}

/** Dates as YYYY-MM-DD strings, null not set. */
const ISO_DATES: WindowArithmetic<string | null, number | null> = {
  firstDate: (date, fallback) => date ?? fallback,
  firstDays: (days, fallback) => days ?? fallback,
  plus: (date, days) => (date === null || days === null ? null : addDays(date, days)),
  minus: (date, days) => (date === null || days === null ? null : addDays(date, -days)),
  later: (a, b) => (a === null ? b : b === null || a > b ? a : b),
  earlier: (a, b) => (a === null ? b : b === null || a < b ? a : b),
};

/** A trip's swap window (windowOf) in dates: what Find swaps searches when no dates are given. */
export function tripWindow(
  trip: { startDate: string; searchStartDate: string | null; searchEndDate: string | null },
  pilotSearchDayRange: number | null,
  settingDays: number,
): SwapWindow {
  const { from, to } = windowOf(ISO_DATES, {
    start: trip.startDate,
    searchFrom: trip.searchStartDate,
    searchTo: trip.searchEndDate,
    pilotDays: pilotSearchDayRange,
    settingDays,
    maxDays: MAX_WINDOW_DAYS,
  });
  // Both bounds fall back on the trip's start, which is always set.
  return { from: from ?? trip.startDate, to: to ?? trip.startDate };
}

export function isWithinMaxWindow(startDate: string, date: string): boolean {
  return Math.abs(daysBetween(startDate, date)) <= MAX_WINDOW_DAYS;
}
