import { addDays, daysBetween, type Aircraft, type Fleet } from '@crewswap/proto';

/**
 * Who can swap with whom (decisions.md): the same rank, and each pilot can fly the other's trip.
 * A330, A350 and B787 pilots fly their own type; SFF pilots fly A330, A350 and SFF.
 */
const FLOWN_BY_FLEET: Record<Fleet, readonly Aircraft[]> = {
  A330: ['A330'],
  A350: ['A350'],
  B787: ['B787'],
  SFF: ['A330', 'A350', 'SFF'],
};

export function aircraftFlownBy(fleet: Fleet): Aircraft[] {
  return [...FLOWN_BY_FLEET[fleet]];
}

export function fleetsThatFly(aircraft: Aircraft): Fleet[] {
  return (Object.keys(FLOWN_BY_FLEET) as Fleet[]).filter((fleet) => FLOWN_BY_FLEET[fleet].includes(aircraft));
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

export interface Window {
  from: string;
  to: string;
}

/**
 * The dates a trip's swap partners may start on. Each bound comes from the first that is set: the
 * trip's own search range, else the pilot's searchDayRange, else the setting, in days either side
 * of the trip start (0 = the same start date). Nothing reaches past MAX_WINDOW_DAYS.
 */
export function tripWindow(
  trip: { startDate: string; searchStartDate: string | null; searchEndDate: string | null },
  pilotSearchDayRange: number | null,
  settingDays: number,
): Window {
  const days = pilotSearchDayRange ?? settingDays;
  const earliest = addDays(trip.startDate, -MAX_WINDOW_DAYS);
  const latest = addDays(trip.startDate, MAX_WINDOW_DAYS);
  const from = trip.searchStartDate ?? addDays(trip.startDate, -days);
  const to = trip.searchEndDate ?? addDays(trip.startDate, days);
  // Cut to the furthest reach, not moved into it: a range wholly past it finds nothing.
  return { from: from < earliest ? earliest : from, to: to > latest ? latest : to };
}

export function isWithinMaxWindow(startDate: string, date: string): boolean {
  return Math.abs(daysBetween(startDate, date)) <= MAX_WINDOW_DAYS;
}
