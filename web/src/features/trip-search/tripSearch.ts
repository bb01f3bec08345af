import { FLIGHT_PREFIX, isWellFormedRoute, routeCodes, SEARCH_MESSAGES, shapeRoute } from '@crewswap/proto/browser';

/** The flight field holds at most VS and 3 digits. */
export const SEARCH_FLIGHT_MAX = 5;

/**
 * The flight field as it is typed: upper case, VS then digits only (a digit typed first gets the
 * VS put in front), at most 5 characters. A lone 'V' stays so that 'VS' can be typed.
 */
export function shapeSearchFlight(raw: string): string {
  const upper = raw.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (upper === '') return '';
  if (upper === 'V') return 'V';
  const digits = upper.replace(/^VS?/, '').replace(/\D/g, '').slice(0, 3);
  return `${FLIGHT_PREFIX}${digits}`.slice(0, SEARCH_FLIGHT_MAX);
}

/** On leaving the field, 'VS7' becomes 'VS007'; a bare prefix is cleared. */
export function padSearchFlight(value: string): string {
  const digits = shapeSearchFlight(value).replace(/^VS?/, '');
  return digits === '' ? '' : `${FLIGHT_PREFIX}${digits.padStart(3, '0')}`;
}

/** The airport field: one code or AAA-BBB, upper case, the dash put in after 3 letters, at most 7 characters. */
export const shapeSearchAirport = shapeRoute;

export interface SearchProblem {
  title: string;
  text: string;
}

const M = SEARCH_MESSAGES;

/** The spec's Trip Search messages (pilot spec section 5) as title and text, the server's own words. */
export const SEARCH_PROBLEMS = {
  flight: { title: M.flightNumberTitle, text: M.flightNumber },
  route: { title: M.routeFormatTitle, text: M.routeFormat },
  unknownCode: (code: string): SearchProblem => ({ title: M.unknownAirportTitle, text: M.unknownAirport(code) }),
  criteria: { title: M.criteriaTitle, text: M.criteria },
  date: { title: M.dateTitle, text: M.date },
  noResults: { title: M.noResultsTitle, text: M.noResults },
} as const;

export interface SearchInput {
  flightNumber: string;
  airport: string;
  date: string;
}

/** What is wrong with the search, in the spec's order, or null when it may be sent. */
export function searchProblem(input: SearchInput, knownCodes: ReadonlySet<string> | undefined): SearchProblem | null {
  const flight = input.flightNumber.trim();
  const airport = input.airport.trim().replace(/-$/, '');
  if (flight !== '' && !/^VS\d{3}$/.test(flight)) return SEARCH_PROBLEMS.flight;
  if (airport !== '' && !isWellFormedRoute(airport)) return SEARCH_PROBLEMS.route;
  if (airport !== '' && knownCodes) {
    const unknown = routeCodes(airport).find((code) => !knownCodes.has(code));
    if (unknown) return SEARCH_PROBLEMS.unknownCode(unknown);
  }
  if (flight === '' && airport === '') return SEARCH_PROBLEMS.criteria;
  if (input.date === '') return SEARCH_PROBLEMS.date;
  return null;
}

/** The query string of `GET /api/usual-requests/search`. */
export function searchQuery(input: SearchInput): string {
  const query = new URLSearchParams({ date: input.date });
  if (input.flightNumber !== '') query.set('flightNumber', input.flightNumber);
  const airport = input.airport.replace(/-$/, '');
  if (airport !== '') query.set('destination', airport);
  return query.toString();
}
