/**
 * Input shaping shared by the pilot app (as the user types) and the services (which repeat every
 * rule): phone, names, email prefixes, trip flight numbers, routes and verification codes, as the
 * spec's section 5 reads them. No zod here: the browser imports this through `./browser`.
 */
import { HOME_BASES } from './crew-rules';

export const PHONE_PLUS_ZERO_MESSAGE =
  'Phone number cannot start with +0. Please enter your number with the correct country code (e.g., +44 for UK, +1 for US).';
export const ADMIN_PHONE_PLUS_ZERO_MESSAGE =
  'Phone number cannot start with +0. Please enter the number with the correct country code (e.g., +44 for UK, +1 for US).';

/** Keeps digits and one leading plus, as the spec shapes phone input. */
export function shapePhone(raw: string): string {
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

/** Names keep letters, spaces and hyphens, and are title-cased. */
export function shapeName(raw: string): string {
  return raw
    .replace(/[^\p{L} -]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/(^|[ -])(\p{L})/gu, (_match, sep: string, letter: string) => sep + letter.toUpperCase());
}

/** Email prefixes are lower case with no spaces or '@'. */
export function shapeEmailPrefix(raw: string): string {
  return raw.toLowerCase().replace(/[\s@]/g, '');
}

export const FLIGHT_PREFIX = 'VS';
export const FLIGHT_DIGITS = 3;
export const ROUTE_MAX_LENGTH = 7;
export const VERIFICATION_CODE_MAX = 20;
export const VERIFICATION_CODE_MIN = 6;

/** The part typed after the fixed VS prefix: digits only, at most 3. */
export function shapeFlightDigits(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, FLIGHT_DIGITS);
}

/** On leaving the field, '7' becomes '007'; an empty field stays empty. */
export function padFlightDigits(digits: string): string {
  const shaped = shapeFlightDigits(digits);
  return shaped === '' ? '' : shaped.padStart(FLIGHT_DIGITS, '0');
}

export function flightNumber(digits: string): string {
  return `${FLIGHT_PREFIX}${digits}`;
}

/** 'VS025' -> '025'; anything else keeps only its digits. */
export function flightDigitsOf(flightNo: string): string {
  return shapeFlightDigits(flightNo.toUpperCase().startsWith(FLIGHT_PREFIX) ? flightNo.slice(FLIGHT_PREFIX.length) : flightNo);
}

export function isCompleteFlightDigits(digits: string): boolean {
  return /^\d{3}$/.test(digits);
}

/**
 * Route input: upper case, letters and hyphens only, a hyphen after every 3 letters, at most 7
 * characters ('laxsfo' -> 'LAX-SFO'). A hyphen the user typed right after a full code is kept so
 * that 'LAX-' can be typed on the way to 'LAX-SFO'.
 */
export function shapeRoute(raw: string): string {
  const upper = raw.toUpperCase().replace(/[^A-Z-]/g, '');
  const letters = upper.replace(/-/g, '').slice(0, 6);
  const codes = letters.match(/.{1,3}/g) ?? [];
  let shaped = codes.join('-');
  if (upper.endsWith('-') && letters.length === 3) shaped += '-';
  return shaped.slice(0, ROUTE_MAX_LENGTH);
}

/** The airport codes of a route ('LAX-SFO' -> ['LAX', 'SFO']), ignoring empty parts. */
export function routeCodes(route: string): string[] {
  return route
    .toUpperCase()
    .split('-')
    .map((code) => code.trim())
    .filter((code) => code !== '');
}

/** A route is well formed when it is one or two 3-letter codes joined by a hyphen. */
export function isWellFormedRoute(route: string): boolean {
  return /^[A-Z]{3}(-[A-Z]{3})?$/.test(route);
}

export const HOME_BASES_ONLY_MESSAGE = 'LHR and MAN are home bases, never a destination: enter the airports outside them (e.g. JFK or SEA-LAX).';

/**
 * A typed route loses its home bases as an imported one does (decisions.md: LHR and MAN are
 * always excluded): 'LHR-JFK' -> 'JFK'. A route of home bases only is left as typed, for the
 * message above.
 */
export function withoutHomeBases(route: string): string {
  const codes = route.split('-');
  const kept = codes.filter((code) => !(HOME_BASES as readonly string[]).includes(code));
  return kept.length > 0 && kept.length < codes.length ? kept.join('-') : route;
}

export function isHomeBasesOnly(route: string): boolean {
  const codes = routeCodes(route);
  return codes.length > 0 && codes.every((code) => (HOME_BASES as readonly string[]).includes(code));
}

export function invalidAirportMessage(codes: readonly string[]): string {
  return `Invalid airport code(s): ${codes.join(', ')} (not in IATA database)`;
}

/** Verification codes: spaces stripped, at most 20 characters. */
export function shapeVerificationCode(raw: string): string {
  return raw.replace(/\s/g, '').slice(0, VERIFICATION_CODE_MAX);
}

/** Phone numbers may not start with +0 (a missing country code). */
export function isPlusZeroPhone(phone: string): boolean {
  return phone.startsWith('+0');
}
