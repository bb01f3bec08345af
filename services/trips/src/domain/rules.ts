import { badRequest, conflict, forbidden } from '@crewswap/kit';
import {
  aircraftFlownBy,
  isLtcCaptain,
  STANDBY_FLIGHT_NUMBER,
  STANDBY_ROUTES,
  TRIP_MESSAGES,
  TRIP_TIME_MESSAGES,
  addDays,
  daysBetween,
  numericDate,
  outOfRangeDate,
  type Aircraft,
  type Fleet,
  type Trip,
} from '@crewswap/proto';
import type { DirectoryPilot } from '../data/pilots';

const M = TRIP_MESSAGES;

/** 'VS123' or '123' becomes 'VS123'; blank (or the bare prefix) is undefined; anything else is kept for the error. */
export function normalizeFlightNo(raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim().toUpperCase().replace(/\s+/g, '');
  if (value === '' || value === 'VS') return undefined;
  return /^\d+$/.test(value) ? `VS${value}` : value;
}

export function checkFlightNumbers(start: string | undefined, end: string | undefined, missingMessage: string = M.flightNumbersMissing): {
  flightNoStart: string;
  flightNoEnd: string;
} {
  if (!start || !end) {
    throw badRequest(missingMessage, {
      title: missingMessage === M.flightNumbersMissing ? M.flightNumbersTitle : M.missingTitle,
    });
  }
  if (!/^VS\d{3}$/.test(start) || !/^VS\d{3}$/.test(end)) {
    throw badRequest(M.flightNumbersInvalid, { title: M.flightNumbersTitle });
  }
  return { flightNoStart: start, flightNoEnd: end };
}

/**
 * Upper case and trimmed, nothing more: shaping what a pilot types is the form's job, and a
 * server that dropped characters would store 'JFK-12' as 'JFK'. routeCodes() refuses the rest.
 */
export function normalizeRoute(raw: string | undefined): string {
  return (raw ?? '').trim().toUpperCase();
}

export function isStandbyDuty(flightNoStart: string, flightNoEnd: string, route: string): boolean {
  return flightNoStart === STANDBY_FLIGHT_NUMBER && flightNoEnd === STANDBY_FLIGHT_NUMBER && (STANDBY_ROUTES as readonly string[]).includes(route);
}

/**
 * Checks a (normalized) route's shape, one or two 3-letter codes joined by one hyphen, and
 * answers its codes; the IATA lookup is the caller's.
 */
export function routeCodes(route: string, missingMessage: string = M.routeMissing): string[] {
  if (route === '') throw badRequest(missingMessage, { title: M.missingTitle });
  const codes = route.split('-');
  if (codes.includes('')) throw badRequest(M.routeFormat, { title: M.routeTitle });
  if (codes.length > 2) throw badRequest(M.routeTooLong, { title: M.routeTitle });
  const malformed = codes.filter((code) => !/^[A-Z]{3}$/.test(code));
  if (malformed.length > 0) throw badRequest(M.invalidAirports(malformed), { title: M.routeTitle });
  return codes;
}

export function invalidAirports(codes: string[], known: Set<string>): void {
  const invalid = codes.filter((code) => !/^[A-Z]{3}$/.test(code) || !known.has(code));
  if (invalid.length > 0) throw badRequest(M.invalidAirports(invalid), { title: M.routeTitle });
}

export function checkDates(startDate: string, endDate: string, today: string, options: { mustNotHaveEnded: boolean }): void {
  if (endDate < startDate) throw badRequest(M.endBeforeStart, { title: M.dateTitle });
  if (options.mustNotHaveEnded && endDate < today) throw badRequest(M.alreadyEnded, { title: M.dateTitle });
}

/** Every date a request or a roster brings lies in proto's accepted range (a year back, two ahead). */
export function checkAcceptedDates(dates: readonly (string | null | undefined)[], today: string): void {
  const message = outOfRangeDate(dates, today);
  if (message) throw badRequest(message, { title: M.dateTitle });
}

/** The spec's fleet rule, shared with the web app. */
export const allowedAircraft = (fleet: Fleet | undefined) => aircraftFlownBy(fleet);

/** The aircraft to store: the one asked for if the fleet flies it, or the only choice when none was asked. */
export function chooseAircraft(fleet: Fleet, asked: Aircraft | null | undefined): Aircraft {
  const allowed = allowedAircraft(fleet);
  if (asked == null) {
    if (allowed.length === 1) return allowed[0]!;
    throw badRequest(M.aircraftRequired, { title: M.missingTitle });
  }
  if (!allowed.includes(asked)) throw badRequest(M.aircraftNotAllowed(fleet, allowed));
  return asked;
}

export function checkTraining(pilot: DirectoryPilot): void {
  if (!isLtcCaptain(pilot)) throw forbidden(M.trainingNotAllowed);
}

/** 0 or null is none; the schema has already held it to 0-10. */
export function normalizeCompanions(value: number | null | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  return value === null || value === 0 ? null : value;
}

export function checkSwapDescription(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  if (trimmed.length > 100) throw badRequest(M.swapDescription);
  return trimmed === '' ? null : trimmed;
}

/** The search range must lie within `windowDays` of the trip start, To not before From. */
export function checkSearchRange(startDate: string, from: string | null, to: string | null, windowDays: number): void {
  if (from && to && to < from) throw badRequest(M.searchRangeOrder);
  const earliest = addDays(startDate, -windowDays);
  const latest = addDays(startDate, windowDays);
  for (const date of [from, to]) {
    if (date && (date < earliest || date > latest)) throw badRequest(M.searchRangeWindow(windowDays));
  }
}

/** The spec's warnings: shown, not refused. */
export function tripWarnings(startDate: string, endDate: string, today: string): string[] {
  const warnings: string[] = [];
  if (daysBetween(startDate, endDate) >= 7) warnings.push(M.longTrip);
  if (daysBetween(today, startDate) > 56) warnings.push(M.farFuture);
  return warnings;
}

export function describeTrip(trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'startDate' | 'endDate'>): string {
  return `${trip.flightNoStart}/${trip.flightNoEnd} (${numericDate(trip.startDate)} to ${numericDate(trip.endDate)})`;
}

export function conflictWith(trip: Trip) {
  return conflict(M.conflict(trip.flightNoStart, trip.flightNoEnd, trip.startDate, trip.endDate), { title: M.dateTitle });
}

/**
 * Typed report and release times (issue 55): release after report, each on a day of the trip or
 * the day either side (UTC dates, so a night departure reported the evening before still fits).
 */
export function checkTripTimes(startDate: string, endDate: string, reportAt: string | null, releaseAt: string | null): void {
  if (reportAt !== null && releaseAt !== null && Date.parse(releaseAt) <= Date.parse(reportAt)) throw badRequest(TRIP_TIME_MESSAGES.releaseBeforeReport);
  for (const time of [reportAt, releaseAt]) {
    if (time === null) continue;
    const day = time.slice(0, 10);
    if (day < addDays(startDate, -1) || day > addDays(endDate, 1)) throw badRequest(TRIP_TIME_MESSAGES.outsideDates);
  }
}
