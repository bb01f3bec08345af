import { z } from 'zod';
import { Aircraft, IsoDate } from './common';
import { PilotContact } from './pilot';
import { LegalityAnswer, TripDutyTimes } from './flight-times';

export const FLIGHT_NUMBER = /^VS\d{3}$/;
export const STANDBY_FLIGHT_NUMBER = 'VS000';
import { MAX_SWAP_DESCRIPTION } from './constants';
import { numericDate } from './dates';

export { MAX_SWAP_DESCRIPTION } from './constants';

/** Free text a pilot types; Postgres cannot store a NUL character, so it is refused here. */
const noNul = (text: string) => !text.includes('\u0000');
const NUL_MESSAGE = 'Text cannot contain NUL characters';
const swapDescriptionText = z
  .string()
  .max(MAX_SWAP_DESCRIPTION, 'Swap description cannot exceed 100 characters')
  .refine(noNul, NUL_MESSAGE);
const icsDescriptionText = z.string().max(5000).refine(noNul, NUL_MESSAGE);

export const TRIP_SOURCES = ['manual', 'upload', 'email'] as const;
export const TripSource = z.enum(TRIP_SOURCES);
export type TripSource = z.infer<typeof TripSource>;

/**
 * How an offered trip is offered (issue 53): for another trip ('swap'), to anyone who will fly it
 * ('giveaway', picked up with no trip in return), or either. A trip not offered keeps its last.
 */
export const OFFER_TYPES = ['swap', 'giveaway', 'either'] as const;
export const OfferType = z.enum(OFFER_TYPES, "offerType must be 'swap', 'giveaway' or 'either'");
export type OfferType = z.infer<typeof OfferType>;

export const Trip = z.object({
  id: z.uuid(),
  pilotId: z.uuid(),
  flightNoStart: z.string(),
  flightNoEnd: z.string(),
  /** Null for standby duties, which fly nothing. */
  aircraft: Aircraft.nullable(),
  route: z.string(),
  startDate: IsoDate,
  endDate: IsoDate,
  isSwappable: z.boolean(),
  /** How it is offered; 'swap' for every trip before give-aways existed. */
  offerType: OfferType.default('swap'),
  training: z.boolean(),
  /** The Keep flag. */
  requested: z.boolean(),
  companions: z.number().int().min(1).max(10).nullable(),
  swapDescription: z.string().max(MAX_SWAP_DESCRIPTION).nullable(),
  icsDescription: z.string().nullable(),
  searchStartDate: IsoDate.nullable(),
  searchEndDate: IsoDate.nullable(),
  isStandby: z.boolean(),
  /** How the trip arrived: typed in the app, uploaded as a roster file, or emailed as one. */
  source: TripSource.default('manual'),
  /** Check-in, check-out and sectors (issue 55): null where the roster or the pilot did not give them. */
  reportAt: TripDutyTimes.shape.reportAt,
  releaseAt: TripDutyTimes.shape.releaseAt,
  sectors: TripDutyTimes.shape.sectors,
  /** Derived from the times by `tripValue`: null where they are not known; nights from the dates then. */
  blockMinutes: z.number().int().min(0).nullable().default(null),
  dutyMinutes: z.number().int().min(0).nullable().default(null),
  nightsAway: z.number().int().min(0).default(0),
  landings: z.number().int().min(0).nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Trip = z.infer<typeof Trip>;

/** A trip answer that may carry the spec's warnings (long trip, far in the future). */
export const TripWithWarnings = Trip.extend({ warnings: z.array(z.string()) });
export type TripWithWarnings = z.infer<typeof TripWithWarnings>;

const flightNo = z.string().max(10);
/** A typed report or release time: a UTC instant (the app sends its local time as one). */
const TRIP_TIME = z.iso.datetime({ offset: true, error: 'Report and release times must be date-times' }).transform((value) => new Date(value).toISOString().replace('.000Z', 'Z'));
/** 0 means none (stored as null); above 0 also sets the Keep flag. */
const companions = z
  .number('Companions must be between 1 and 10.')
  .int('Companions must be between 1 and 10.')
  .min(0, 'Companions must be between 1 and 10.')
  .max(10, 'Companions must be between 1 and 10.')
  .nullable();

export const CreateTripBody = z.strictObject({
  flightNoStart: flightNo.default(''),
  flightNoEnd: flightNo.default(''),
  aircraft: Aircraft.nullable().optional(),
  route: z.string().max(20).default(''),
  startDate: IsoDate,
  endDate: IsoDate,
  training: z.boolean().default(false),
  requested: z.boolean().default(false),
  companions: companions.optional(),
  isSwappable: z.boolean().default(false),
  swapDescription: swapDescriptionText.nullable().optional(),
  icsDescription: icsDescriptionText.nullable().optional(),
  searchStartDate: IsoDate.nullable().optional(),
  searchEndDate: IsoDate.nullable().optional(),
  reportAt: TRIP_TIME.nullable().optional(),
  releaseAt: TRIP_TIME.nullable().optional(),
});
export type CreateTripBody = z.input<typeof CreateTripBody>;

export const UpdateTripBody = z.strictObject({
  flightNoStart: flightNo.optional(),
  flightNoEnd: flightNo.optional(),
  aircraft: Aircraft.nullable().optional(),
  route: z.string().max(20).optional(),
  startDate: IsoDate.optional(),
  endDate: IsoDate.optional(),
  training: z.boolean().optional(),
  requested: z.boolean().optional(),
  companions: companions.optional(),
  icsDescription: icsDescriptionText.nullable().optional(),
  reportAt: TRIP_TIME.nullable().optional(),
  releaseAt: TRIP_TIME.nullable().optional(),
});
export type UpdateTripBody = z.infer<typeof UpdateTripBody>;

export const SwappableBody = z.strictObject({
  isSwappable: z.boolean(),
  /** Left out: the trip keeps how it was offered ('swap' for a trip never offered otherwise). */
  offerType: OfferType.optional(),
  swapDescription: swapDescriptionText.nullable().optional(),
  requested: z.boolean().optional(),
  searchStartDate: IsoDate.nullable().optional(),
  searchEndDate: IsoDate.nullable().optional(),
  skipNotification: z.boolean().optional(),
});
export type SwappableBody = z.infer<typeof SwappableBody>;

export const DescriptionBody = z.strictObject({
  swapDescription: swapDescriptionText.nullable(),
});
export type DescriptionBody = z.infer<typeof DescriptionBody>;

export const RequestedBody = z.strictObject({ requested: z.boolean() });
export type RequestedBody = z.infer<typeof RequestedBody>;

export const IataCode = z.object({
  id: z.uuid(),
  iataCode: z.string(),
  icaoCode: z.string().nullable(),
  continent: z.string().nullable(),
  isoCountry: z.string().nullable(),
  municipality: z.string().nullable(),
});
export type IataCode = z.infer<typeof IataCode>;

/**
 * GET /api/iata-codes: the codes alone, sorted ("list of iataCode"), which is all the trip form
 * checks a route against. The full records are the admin routes' (GET /api/admin/iata-codes).
 */
export const IataCodeList = z.array(z.string());
export type IataCodeList = z.infer<typeof IataCodeList>;

/** A short code, uppercased; blank stays '' (stored as null). */
const code = (pattern: RegExp, message: string) =>
  z
    .string(message)
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value) => pattern.test(value), message);

export const CreateIataCodeBody = z.strictObject({
  iataCode: z
    .string('IATA code is required')
    .trim()
    .min(1, 'IATA code is required')
    .regex(/^[A-Za-z]{3}$/, 'IATA code must be exactly 3 letters')
    .transform((code) => code.toUpperCase()),
  icaoCode: code(/^[A-Z0-9]{0,4}$/, 'ICAO code must be at most 4 characters').nullable().optional(),
  continent: code(/^([A-Z]{2})?$/, 'Continent must be 2 characters').nullable().optional(),
  isoCountry: code(/^([A-Z]{2})?$/, 'Country code must be 2 characters').nullable().optional(),
  municipality: z.string().trim().max(100).refine(noNul, NUL_MESSAGE).nullable().optional(),
});
export type CreateIataCodeBody = z.input<typeof CreateIataCodeBody>;

/** An admin's change to one IATA code: any of the fields, validated as on create. */
export const UpdateIataCodeBody = CreateIataCodeBody.partial();
export type UpdateIataCodeBody = z.input<typeof UpdateIataCodeBody>;

/** An airport never shown as a trip's destination (dropped from imported routes). */
export const ExcludedAirport = z.object({ id: z.uuid(), iataCode: z.string() });
export type ExcludedAirport = z.infer<typeof ExcludedAirport>;

export const CreateExcludedAirportBody = z.strictObject({
  iataCode: z
    .string('IATA code must be exactly 3 characters')
    .trim()
    .length(3, 'IATA code must be exactly 3 characters')
    .transform((code) => code.toUpperCase()),
});
export type CreateExcludedAirportBody = z.input<typeof CreateExcludedAirportBody>;

/** Home bases are never a destination, whatever the admin list says. */
export const ALWAYS_EXCLUDED_AIRPORTS = ['LHR', 'MAN'] as const;

/** Standby and reserve duties: flight VS000 with one of these codes as the route. */
export const STANDBY_ROUTES = ['SBY', 'HSBY', 'ASBY', 'RSV'] as const;

export const TripListQuery = z.strictObject({
  includeCrew: z.enum(['true', 'false']).optional(),
});
export type TripListQuery = z.infer<typeof TripListQuery>;

/** The spec's trip messages (pilot-app sections 5 and 9), copied verbatim where the spec gives them. */
export const TRIP_MESSAGES = {
  flightNumbersMissing: 'Please fill in both start and end flight numbers.',
  flightNumbersInvalid: 'Flight numbers must be exactly 3 digits each.',
  flightNumbersTitle: 'Invalid Flight Numbers',
  editMissing: 'Please fill in all required fields before updating the trip.',
  missingTitle: 'Missing Information',
  routeMissing: 'Please enter the route.',
  invalidAirports: (codes: string[]) => `Invalid airport code(s): ${codes.join(', ')} (not in IATA database)`,
  routeTooLong: 'A route lists at most two airports (e.g. JFK or SEA-LAX).',
  routeFormat: 'A route is one or two 3-letter airport codes joined by a hyphen (e.g. JFK or SEA-LAX).',
  routeTitle: 'Route Validation Error',
  endBeforeStart: 'End date cannot be before start date',
  alreadyEnded: 'Trip has already ended (end date is in the past)',
  dateTitle: 'Date Validation Error',
  conflict: (flightNoStart: string, flightNoEnd: string, startDate: string, endDate: string) =>
    `Trip dates conflict with existing trip: ${flightNoStart}/${flightNoEnd} (${numericDate(startDate)} to ${numericDate(endDate)})`,
  longTrip: 'This trip is more than 7 days long. Please verify the dates are correct.',
  farFuture: 'This trip is more than 8 weeks away. Please verify the dates are correct.',
  noChanges: 'No modifications were made to the trip.',
  noChangesTitle: 'No Changes',
  companions: 'Companions must be between 1 and 10.',
  swapDescription: 'Swap description cannot exceed 100 characters',
  trainingNotAllowed: 'Only LTC captains can mark trips as Training duties.',
  aircraftRequired: 'Please select an aircraft type.',
  aircraftNotAllowed: (fleet: string, allowed: readonly string[]) =>
    `A ${fleet} pilot can only add ${allowed.join(', ')} trips.`,
  searchRangeOrder: 'The search end date cannot be before the search start date.',
  searchRangeWindow: (days: number) => `Search dates must be within ${days} days of the trip start date.`,
  profileNotReady: 'Your pilot profile is not ready yet. Please try again in a moment.',
  tripNotFound: 'Trip not found',
} as const;

/** One offer found for a trip: the other pilot's offered trip and how to reach them. */
/** What Find swaps shows of an offered trip (the list and Swap Offer Details), and no more. */
export const SwapMatchTrip = Trip.pick({
  id: true,
  flightNoStart: true,
  flightNoEnd: true,
  aircraft: true,
  route: true,
  startDate: true,
  endDate: true,
  training: true,
  requested: true,
  swapDescription: true,
  blockMinutes: true,
  nightsAway: true,
  landings: true,
});
export type SwapMatchTrip = z.infer<typeof SwapMatchTrip>;

/** What Find swaps shows of the pilot offering it: name, rank, fleet, base and how to reach them. */
export const SwapMatchPilot = PilotContact.pick({ firstName: true, lastName: true, email: true, phone: true, rank: true, fleet: true, base: true });
export type SwapMatchPilot = z.infer<typeof SwapMatchPilot>;

/**
 * One Find swaps answer row. Only the fields the app shows: an answer runs to hundreds of offers
 * and goes to a phone.
 */
export const SwapMatch = z.object({
  trip: SwapMatchTrip,
  pilot: SwapMatchPilot,
  sameDates: z.boolean(),
  /**
   * The offer's owner could also take the searched trip (issue 37): the swap rule holds both
   * ways, the searched trip starts inside the owner's window for the offer, and neither pilot is
   * left with two trips on one day.
   */
  mutual: z.boolean(),
  /** The offer starts within 48 hours: today up to the date 48 hours from now, Europe/London (issue 39). */
  urgent: z.boolean(),
  /**
   * Whether the searching pilot may fly the offer, on their roster as it would be after the swap
   * (issue 55): 'unknown' when times are missing; `reasons` are the limits' sentences. Mutual
   * also means legal both ways where both are known.
   */
  legal: LegalityAnswer.shape.legal,
  reasons: LegalityAnswer.shape.reasons,
});
export type SwapMatch = z.infer<typeof SwapMatch>;

/** Find swaps' orders: relevance (Mutual, Urgent, same dates, start: the default), start date, most block first, fewest days away first. */
export const MATCH_SORTS = ['relevance', 'start', 'block', 'daysAway'] as const;
export type MatchSort = (typeof MATCH_SORTS)[number];

/** Find swaps asks at most this many offers a page. */
export const MATCHES_PAGE_MAX = 200;
const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MATCHES_PAGE_MAX}.`;

/**
 * Find swaps: the window (each bound optional), and a page. With `limit` the answer is a
 * SwapMatchPage of at most that many offers in relevance order (Mutual, then Urgent, then same
 * dates, then start date); `cursor` is the `nextCursor` of the page before. Without `limit`, the
 * whole list as SwapMatch[] (the spec's answer). The app sends `?startDate=&endDate=` when no
 * range is chosen: an empty value means not given.
 */
export const MatchesQuery = z.preprocess(
  (query: unknown) => (query && typeof query === 'object' ? Object.fromEntries(Object.entries(query).filter(([, value]) => value !== '')) : query),
  z.strictObject({
    startDate: IsoDate.optional(),
    endDate: IsoDate.optional(),
    limit: z.coerce.number({ error: LIMIT_MESSAGE }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MATCHES_PAGE_MAX, LIMIT_MESSAGE).optional(),
    cursor: z.string().min(1).max(500, 'This list has changed or the link is not valid. Please search again.').optional(),
    sort: z.enum(MATCH_SORTS, "sort must be 'relevance', 'start', 'block' or 'daysAway'").default('relevance'),
    /** Leave out offers the pilot may not fly (legal false); 'unknown' ones stay. */
    legalOnly: z.enum(['true', 'false'], "legalOnly must be 'true' or 'false'").transform((value) => value === 'true').default(false),
  }),
);
export type MatchesQuery = z.infer<typeof MatchesQuery>;

/** One page of Find swaps (`?limit=`): the offers, how many the whole list holds, and the cursor of the next page (null: none). */
export const SwapMatchPage = z.object({
  matches: z.array(SwapMatch),
  total: z.number().int().min(0),
  nextCursor: z.string().nullable(),
});
export type SwapMatchPage = z.infer<typeof SwapMatchPage>;

export const SendNotificationsResponse = z.object({
  message: z.string(),
  alerted: z.number().int().min(0),
});
export type SendNotificationsResponse = z.infer<typeof SendNotificationsResponse>;

/** Typed report and release times (issue 55): Add and Edit Trip refuse times that cannot be the trip's. */
export const TRIP_TIME_MESSAGES = {
  releaseBeforeReport: 'Release must be after report.',
  outsideDates: "Report and release must fall within the trip's dates (a day either side at most).",
} as const;
