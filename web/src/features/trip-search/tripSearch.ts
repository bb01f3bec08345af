import { FLIGHT_PREFIX, isWellFormedRoute, routeCodes, shapeRoute } from '@crewswap/proto/browser';

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

/** The spec's Trip Search messages (pilot spec section 5), verbatim. */
export const SEARCH_MESSAGES = {
  flight: {
    title: 'Incomplete Flight Number',
    text: 'Flight number must be VS + exactly 3 digits (e.g. VS123).',
  },
  route: {
    title: 'Invalid Route Format',
    text: 'Route must be either a 3-letter airport code (e.g. LHR) or route format (e.g. LHR-JFK).',
  },
  unknownCode: (code: string): SearchProblem => ({
    title: 'Invalid Airport Code',
    text: `${code} is not a valid IATA airport code in our database.`,
  }),
  criteria: {
    title: 'Search Criteria Required',
    text: 'Please enter a complete flight number (VS + exactly 3 digits) and/or valid airport/route to search.',
  },
  date: { title: 'Date Required', text: 'Please select a date to search.' },
  noResults: { title: 'No Results', text: 'No trips found in the system that are accepting usual requests.' },
} as const satisfies Record<string, SearchProblem | ((code: string) => SearchProblem)>;

export interface SearchInput {
  flightNumber: string;
  airport: string;
  date: string;
}

/** What is wrong with the search, in the spec's order, or null when it may be sent. */
export function searchProblem(input: SearchInput, knownCodes: ReadonlySet<string> | undefined): SearchProblem | null {
  const flight = input.flightNumber.trim();
  const airport = input.airport.trim().replace(/-$/, '');
  if (flight !== '' && !/^VS\d{3}$/.test(flight)) return SEARCH_MESSAGES.flight;
  if (airport !== '' && !isWellFormedRoute(airport)) return SEARCH_MESSAGES.route;
  if (airport !== '' && knownCodes) {
    const unknown = routeCodes(airport).find((code) => !knownCodes.has(code));
    if (unknown) return SEARCH_MESSAGES.unknownCode(unknown);
  }
  if (flight === '' && airport === '') return SEARCH_MESSAGES.criteria;
  if (input.date === '') return SEARCH_MESSAGES.date;
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
