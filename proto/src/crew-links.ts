import { z } from 'zod';
import {
  CREW_LINK_CATEGORIES,
  CREW_LINK_LIMITS as LIMITS,
  CREW_LINK_MESSAGES as MESSAGES,
  checkCoordinates,
  checkDestinations,
  isWebAddress,
  splitDestinations,
} from './crew-link-rules';

export * from './crew-link-rules';

export const CrewLinkCategory = z.enum(CREW_LINK_CATEGORIES, MESSAGES.categoryInvalid);
export type CrewLinkCategory = z.infer<typeof CrewLinkCategory>;

/** A crew link as every answer gives it (pilot-app section 3). */
export const CrewLink = z.object({
  id: z.uuid(),
  title: z.string(),
  category: CrewLinkCategory,
  description: z.string(),
  discountDetails: z.string().nullable(),
  /** 'ALL' or the airport codes, e.g. 'JFK, LAX'. */
  destinations: z.string(),
  website: z.string().nullable(),
  locationName: z.string().nullable(),
  locationCoordinates: z.string().nullable(),
  contactInfo: z.string().nullable(),
  isActive: z.boolean(),
  likesCount: z.number().int(),
  isLikedByCurrentUser: z.boolean(),
  lastEditedAt: z.string(),
  /** The pilot id of whoever last saved it; set by the server only. */
  lastEditedBy: z.uuid(),
  /** That pilot's name from the links service's pilot directory; null shows as 'Pilot {id}'. */
  lastEditedByName: z.string().nullable(),
});
export type CrewLink = z.infer<typeof CrewLink>;

const text = (label: string, max: number) => z.string(`${label} must be text`).max(max, MESSAGES.tooLong(label, max));
/** Optional text: missing, null or blank is stored as null. */
const optionalText = (label: string, max: number) =>
  text(label, max)
    .nullable()
    .optional()
    .transform((value) => (value == null || value.trim() === '' ? null : value));
const required = (label: string, max: number, message: string) =>
  z
    .string(message)
    .max(max, MESSAGES.tooLong(label, max))
    .refine((value) => value.trim() !== '', message);

/**
 * What a pilot sends to add or change a link (the whole link each time, as the form does).
 * Text is kept as typed; the app escapes it when it shows it. `lastEditedBy` is accepted because
 * the spec's client sends it, and ignored: the server records who saved.
 */
export const CrewLinkBody = z.strictObject({
  title: required('Title', LIMITS.title, MESSAGES.titleRequired),
  category: z.enum(CREW_LINK_CATEGORIES, {
    error: (issue) => (issue.input === undefined || issue.input === '' || issue.input === null ? MESSAGES.categoryRequired : MESSAGES.categoryInvalid),
  }),
  description: required('Description', LIMITS.description, MESSAGES.descriptionRequired),
  discountDetails: optionalText('Discount details', LIMITS.discountDetails),
  destinations: text('Destinations', LIMITS.destinations)
    .nullable()
    .optional()
    .transform((value, context) => {
      const check = checkDestinations(value ?? '');
      if (!check.ok) {
        context.addIssue({ code: 'custom', message: check.message });
        return z.NEVER;
      }
      return { all: check.all, codes: check.codes, text: check.text };
    }),
  website: optionalText('Website', LIMITS.website).refine((value) => value === null || isWebAddress(value), MESSAGES.website),
  locationName: optionalText('Location name', LIMITS.locationName),
  locationCoordinates: optionalText('Location coordinates', LIMITS.locationCoordinates).refine(
    (value) => value === null || checkCoordinates(value),
    MESSAGES.coordinates,
  ),
  contactInfo: optionalText('Contact info', LIMITS.contactInfo),
  isActive: z.boolean('isActive must be true or false').default(true),
  lastEditedBy: z.unknown().optional(),
});
export type CrewLinkBody = z.input<typeof CrewLinkBody>;
export type CrewLinkInput = z.output<typeof CrewLinkBody>;

/** Airport codes in a query: commas or spaces between them, each 3 letters. */
const codesQuery = z
  .string()
  .max(LIMITS.destinations, MESSAGES.tooLong('Destination', LIMITS.destinations))
  .transform((value) => [...new Set(splitDestinations(value))])
  .refine((codes) => codes.every((code) => /^[A-Z]{3}$/.test(code)), MESSAGES.airportCodeLetters);

/** The list with its filters; `destination` may hold several codes (a trip's outstations). */
export const CrewLinkListQuery = z.strictObject({
  search: z.string().max(LIMITS.search, MESSAGES.tooLong('Search', LIMITS.search)).optional(),
  category: CrewLinkCategory.optional(),
  destination: codesQuery.optional(),
});
export type CrewLinkListQuery = z.input<typeof CrewLinkListQuery>;

/** Similar titles while a pilot types a new one; shorter than 2 characters finds nothing. */
export const SimilarCrewLinksQuery = z.strictObject({
  title: z.string('title is required').max(LIMITS.title, MESSAGES.tooLong('Title', LIMITS.title)),
});
export const SimilarCrewLink = CrewLink.pick({ id: true, title: true, category: true, destinations: true });
export type SimilarCrewLink = z.infer<typeof SimilarCrewLink>;

/** The search box's suggestions: titles, places, destinations and categories that match. */
export const CrewLinkSuggestionsQuery = z.strictObject({
  q: z.string('q is required').max(LIMITS.search, MESSAGES.tooLong('Search', LIMITS.search)),
});
export const CrewLinkSuggestion = z.object({
  value: z.string(),
  kind: z.enum(['title', 'location', 'destination', 'category']),
});
export type CrewLinkSuggestion = z.infer<typeof CrewLinkSuggestion>;

/** The airport codes that links name, for the destination filter. */
export const CrewLinkDestinations = z.array(z.string());

/** One airport code checked against the IATA list (the destination filter's Unknown Airport Code). */
export const AirportCheckQuery = z.strictObject({
  code: z
    .string(MESSAGES.airportCodeLetters)
    .trim()
    .regex(/^[A-Za-z]{3}$/, MESSAGES.airportCodeLetters)
    .transform((code) => code.toUpperCase()),
});
export const AirportCheck = z.object({ code: z.string(), known: z.boolean() });
export type AirportCheck = z.infer<typeof AirportCheck>;

export const CrewLinkLike = z.object({ likesCount: z.number().int(), isLikedByCurrentUser: z.boolean() });
export type CrewLinkLike = z.infer<typeof CrewLinkLike>;

/** Trips answers which of the asked codes are in its IATA list (links checks destinations). */
export const KnownAirportsRequest = z.object({
  codes: z.array(z.string().regex(/^[A-Z]{3}$/)).max(LIMITS.destinationCodes),
});
export const KnownAirportsReply = z.object({ known: z.array(z.string()) });
