import {
  aircraftFlownBy,
  daysBetween,
  flightDigitsOf,
  flightNumber,
  HOME_BASES_ONLY_MESSAGE,
  invalidAirportMessage,
  isCompleteFlightDigits,
  isHomeBasesOnly,
  isWellFormedRoute,
  routeCodes,
  shapeRoute,
} from '@crewswap/proto/browser';
import type { Aircraft, Fleet, Trip, UpdateTripBody } from '@crewswap/proto';

export const LONG_TRIP_WARNING = 'This trip is more than 7 days long. Please verify the dates are correct.';
export const FAR_TRIP_WARNING = 'This trip is more than 8 weeks away. Please verify the dates are correct.';
export const FAR_TRIP_DAYS = 56;
export const LONG_TRIP_DAYS = 7;

export interface TripFormValues {
  /** The 3 digits after the fixed VS prefix. */
  startDigits: string;
  endDigits: string;
  route: string;
  startDate: string;
  endDate: string;
  aircraft: Aircraft | null;
  companions: number | null;
  training: boolean;
  /** Optional report and release times (issue 55), as a datetime-local input holds them; '' when not given. */
  reportAt: string;
  releaseAt: string;
}

export const EMPTY_TRIP_FORM: TripFormValues = {
  startDigits: '',
  endDigits: '',
  route: '',
  startDate: '',
  endDate: '',
  aircraft: null,
  companions: null,
  training: false,
  reportAt: '',
  releaseAt: '',
};

/** Pilot spec section 6: a fleet limits the aircraft a pilot can fly (the server's rule too). */
export function aircraftChoices(fleet: Fleet | string | undefined): Aircraft[] {
  return [...aircraftFlownBy(fleet)];
}

export function formFromTrip(trip: Trip): TripFormValues {
  return {
    startDigits: flightDigitsOf(trip.flightNoStart),
    endDigits: flightDigitsOf(trip.flightNoEnd),
    route: trip.route,
    startDate: trip.startDate,
    endDate: trip.endDate,
    aircraft: trip.aircraft,
    companions: trip.companions,
    training: trip.training,
    reportAt: localInput(trip.reportAt ?? null),
    releaseAt: localInput(trip.releaseAt ?? null),
  };
}

export function dateError(values: Pick<TripFormValues, 'startDate' | 'endDate'>, today: string): string | null {
  if (!values.startDate || !values.endDate) return null;
  if (values.endDate < values.startDate) return 'End date cannot be before start date';
  if (values.endDate < today) return 'Trip has already ended (end date is in the past)';
  return null;
}

/** A standby duty as the trips service knows it: VS000/VS000 with one of these routes (trip.ts STANDBY_ROUTES). */
export const STANDBY_ROUTES: readonly string[] = ['SBY', 'HSBY', 'ASBY', 'RSV'];

function hasStandbyFlights(values: Pick<TripFormValues, 'startDigits' | 'endDigits'>): boolean {
  return Number(values.startDigits || 'NaN') === 0 && Number(values.endDigits || 'NaN') === 0;
}

/** Standby needs no airport check and no aircraft. */
export function isStandbyEntry(values: Pick<TripFormValues, 'startDigits' | 'endDigits' | 'route'>): boolean {
  return hasStandbyFlights(values) && STANDBY_ROUTES.includes(values.route);
}

/** The route as typed: airport codes, or for VS000/VS000 a standby word such as HSBY kept whole. */
export function shapeTripRoute(raw: string, values: Pick<TripFormValues, 'startDigits' | 'endDigits'>): string {
  const letters = raw.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters !== '' && hasStandbyFlights(values) && STANDBY_ROUTES.some((route) => route.startsWith(letters))) return letters;
  return shapeRoute(raw);
}

export interface RouteCheck {
  message: string;
  /** Codes not in the list; a single one may be added through Confirm Valid Airport. */
  unknown: string[];
}

/**
 * Checks a finished route against the IATA list; an unfinished one waits for the field to be left.
 * With only the built-in list (the server's could not be fetched) a code outside it cannot be
 * judged: 'Unable to validate route at this time', and nothing to add.
 */
export function checkRoute(route: string, list: { codes: ReadonlySet<string>; fallback: boolean }, finished: boolean): RouteCheck | null {
  if (route === '') return null;
  if (!isWellFormedRoute(route)) {
    return finished ? { message: 'Each airport code must be exactly 3 letters', unknown: [] } : null;
  }
  if (isHomeBasesOnly(route)) return finished ? { message: HOME_BASES_ONLY_MESSAGE, unknown: [] } : null;
  const unknown = routeCodes(route).filter((code) => !list.codes.has(code));
  if (unknown.length === 0) return null;
  return list.fallback ? { message: ROUTE_UNCHECKED_MESSAGE, unknown: [] } : { message: invalidAirportMessage(unknown), unknown };
}

export const ROUTE_UNCHECKED_MESSAGE = 'Unable to validate route at this time';

export interface TripWarnings {
  long: boolean;
  far: boolean;
}

export function tripWarnings(startDate: string, endDate: string, today: string): TripWarnings {
  if (!startDate || !endDate || endDate < startDate) return { long: false, far: false };
  return {
    long: daysBetween(startDate, endDate) >= LONG_TRIP_DAYS,
    far: daysBetween(today, startDate) > FAR_TRIP_DAYS,
  };
}

export function warningTexts(warnings: TripWarnings): string[] {
  return [...(warnings.long ? [LONG_TRIP_WARNING] : []), ...(warnings.far ? [FAR_TRIP_WARNING] : [])];
}

/** Add Trip stays disabled until everything is there and no date or route error stands. */
export function canSubmitTrip(
  values: TripFormValues,
  problems: { dateError: string | null; routeError: string | null },
): boolean {
  return (
    values.startDigits !== '' &&
    values.endDigits !== '' &&
    values.route !== '' &&
    values.startDate !== '' &&
    values.endDate !== '' &&
    (values.aircraft !== null || isStandbyEntry(values)) &&
    problems.dateError === null &&
    problems.routeError === null
  );
}

export interface Problem {
  title: string;
  message: string;
}

/** The flight-number checks shared by Add and Edit (Edit uses its own 'Missing Information' text). */
export function flightNumberProblem(values: TripFormValues, mode: 'add' | 'edit'): Problem | null {
  if (values.startDigits === '' || values.endDigits === '') {
    return mode === 'add'
      ? { title: 'Missing Information', message: 'Please fill in both start and end flight numbers.' }
      : { title: 'Missing Information', message: 'Please fill in all required fields before updating the trip.' };
  }
  if (!isCompleteFlightDigits(values.startDigits) || !isCompleteFlightDigits(values.endDigits)) {
    return { title: 'Invalid Flight Numbers', message: 'Flight numbers must be exactly 3 digits each.' };
  }
  return null;
}

/** What an edit changes, as the PATCH body (empty when nothing changed). */
export function changedFields(trip: Trip, values: TripFormValues): UpdateTripBody {
  const body: UpdateTripBody = {};
  const start = flightNumber(values.startDigits);
  const end = flightNumber(values.endDigits);
  if (start !== trip.flightNoStart) body.flightNoStart = start;
  if (end !== trip.flightNoEnd) body.flightNoEnd = end;
  if (values.route !== trip.route) body.route = values.route;
  if (values.startDate !== trip.startDate) body.startDate = values.startDate;
  if (values.endDate !== trip.endDate) body.endDate = values.endDate;
  if (values.aircraft !== trip.aircraft) body.aircraft = values.aircraft;
  if (values.companions !== trip.companions) {
    body.companions = values.companions;
    // Pilot spec section 4: setting companions above 0 also sets Keep.
    if (values.companions !== null && values.companions > 0 && !trip.requested) body.requested = true;
  }
  if (values.training !== trip.training) body.training = values.training;
  const reportAt = instantOf(values.reportAt);
  const releaseAt = instantOf(values.releaseAt);
  if (reportAt !== (trip.reportAt ?? null)) body.reportAt = reportAt;
  if (releaseAt !== (trip.releaseAt ?? null)) body.releaseAt = releaseAt;
  return body;
}

export function isUnchanged(body: UpdateTripBody): boolean {
  return Object.keys(body).length === 0;
}

/** A UTC instant as a datetime-local input shows it: the pilot's own clock, to the minute. */
export function localInput(instant: string | null): string {
  if (!instant) return '';
  const date = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** What a datetime-local input holds, as the UTC instant the server stores; null when empty. */
export function instantOf(local: string): string | null {
  if (!local) return null;
  const time = new Date(local).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString().replace('.000Z', 'Z');
}
