/**
 * Crew links without zod, so the browser (through `./browser`) and the links service read the
 * same categories, limits, messages and destination rules (pilot-app sections 3 and 5).
 */

/** The categories a link may have; the order is the order of the category filter. */
export const CREW_LINK_CATEGORIES = [
  'attraction',
  'bar',
  'beach_club',
  'car_hire',
  'discount_sites',
  'events',
  'hiking',
  'hotel',
  'medical',
  'misc',
  'nightclub',
  'restaurant',
  'shopping',
  'vacsc_vans',
  'virgin',
] as const;
export type CrewLinkCategory = (typeof CREW_LINK_CATEGORIES)[number];

/** What a person reads for a category ('lost_property' has an icon but cannot be chosen). */
export const CREW_LINK_CATEGORY_LABELS: Record<CrewLinkCategory | 'lost_property', string> = {
  attraction: 'Attraction',
  bar: 'Bar',
  beach_club: 'Beach Club',
  car_hire: 'Car Hire',
  discount_sites: 'Discount Sites',
  events: 'Events',
  hiking: 'Hiking',
  hotel: 'Hotel',
  medical: 'Medical',
  misc: 'Misc',
  nightclub: 'Nightclub',
  restaurant: 'Restaurant',
  shopping: 'Shopping',
  vacsc_vans: 'VACSC Vans',
  virgin: 'Virgin',
  lost_property: 'Lost Property',
};

/** Every text field is bounded so that a huge body is a 400, never a slow insert or a 5xx. */
export const CREW_LINK_LIMITS = {
  title: 200,
  description: 5000,
  discountDetails: 2000,
  destinations: 500,
  destinationCodes: 50,
  website: 2000,
  locationName: 200,
  locationCoordinates: 300,
  contactInfo: 500,
  search: 100,
  /** The most links one list answer holds. */
  list: 500,
} as const;

/** The similar-titles lookup and the search suggestions start at this many characters. */
export const CREW_LINK_LOOKUP_MIN = 2;

export const ALL_DESTINATIONS = 'ALL';

/** The spec's crew-link messages: verbatim where section 5 gives them, plain words elsewhere. */
export const CREW_LINK_MESSAGES = {
  titleRequired: 'Title is required',
  categoryRequired: 'Category is required',
  categoryInvalid: 'Please choose one of the listed categories',
  descriptionRequired: 'Description is required',
  airportCodeLetters: 'Airport codes must be exactly 3 letters',
  airportCheckFailed: 'Error validating airport code',
  allWithCodes: 'Destinations are either ALL or airport codes, not both',
  tooManyDestinations: `A link lists at most ${CREW_LINK_LIMITS.destinationCodes} destinations`,
  unknownCodeTitle: 'Unknown Airport Code',
  unknownCode: (code: string) => `${code} is not in our IATA airport list. Add it if it is a real airport.`,
  invalidDestinationTitle: 'Invalid Destination',
  invalidDestination: (codes: string[]) => `Invalid Destination: ${codes.join(', ')} are not valid IATA airport codes`,
  website: 'Website must be a web address starting with http:// or https://',
  coordinates: 'Coordinates must be latitude,longitude (latitude -90 to 90, longitude -180 to 180)',
  tooLong: (label: string, max: number) => `${label} cannot exceed ${max} characters`,
  notFound: 'Crew link not found',
  mustBeLoggedIn: 'You must be logged in to add crew links',
  added: 'Crew link added',
  updated: 'Crew link updated',
} as const;

/** Splits what a pilot typed into upper-case tokens: commas and spaces both separate. */
export function splitDestinations(raw: string): string[] {
  return raw
    .toUpperCase()
    .split(/[\s,]+/)
    .filter((token) => token !== '');
}

export type DestinationsCheck =
  | { ok: true; all: true; codes: []; text: typeof ALL_DESTINATIONS }
  | { ok: true; all: false; codes: string[]; text: string }
  | { ok: false; message: string };

/**
 * The shape rules of a destinations field (the IATA check comes after, on the server): empty
 * means ALL, otherwise ALL alone or distinct 3-letter codes. `text` is how it is stored.
 */
export function checkDestinations(raw: string): DestinationsCheck {
  const tokens = splitDestinations(raw);
  if (tokens.length === 0 || (tokens.length === 1 && tokens[0] === ALL_DESTINATIONS)) {
    return { ok: true, all: true, codes: [], text: ALL_DESTINATIONS };
  }
  if (tokens.includes(ALL_DESTINATIONS)) return { ok: false, message: CREW_LINK_MESSAGES.allWithCodes };
  if (tokens.some((token) => !/^[A-Z]{3}$/.test(token))) return { ok: false, message: CREW_LINK_MESSAGES.airportCodeLetters };
  const codes = [...new Set(tokens)];
  if (codes.length > CREW_LINK_LIMITS.destinationCodes) return { ok: false, message: CREW_LINK_MESSAGES.tooManyDestinations };
  return { ok: true, all: false, codes, text: codes.join(', ') };
}

const LAT_LONG = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/**
 * Location coordinates are an address or "lat,long". Text that reads as two numbers is taken as
 * coordinates and must be in range; anything else is an address.
 */
export function checkCoordinates(raw: string): boolean {
  const match = LAT_LONG.exec(raw);
  if (!match) return true;
  const lat = Number(match[1]);
  const long = Number(match[2]);
  return Math.abs(lat) <= 90 && Math.abs(long) <= 180;
}

/** Only web addresses: a `javascript:` link must never reach a card's href. */
export function isWebAddress(raw: string): boolean {
  try {
    const url = new URL(raw.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** A map search for a link's place: the coordinates or address, else the place's name. */
export function mapLink(link: { locationCoordinates: string | null; locationName: string | null }): string | null {
  const query = link.locationCoordinates?.trim() || link.locationName?.trim();
  return query ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}` : null;
}
