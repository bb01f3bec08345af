import { z } from 'zod';

/** The feed's token: 128 random bits, base64url (22 characters). */
export const CALENDAR_FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const CALENDAR_FEED_MESSAGES = {
  notAFeed: 'This is not a calendar feed address.',
  feedNotFound: 'This calendar feed does not exist or has been turned off.',
  tooMany: (seconds: number) => `This calendar feed was asked for too often. Please wait ${seconds} seconds and try again.`,
} as const;

/** GET /api/calendar/{token}.ics: the private address of a pilot's feed. */
export const CalendarFeedParams = z.strictObject({ token: z.string().regex(CALENDAR_FEED_TOKEN_PATTERN, CALENDAR_FEED_MESSAGES.notAFeed) });

/**
 * GET /api/calendar/feed. Only the token's hash is stored, so the address (`url`) is known only
 * in the answer that makes it (POST); a feed that is on answers without it.
 */
export const CalendarFeedStatus = z.object({ enabled: z.boolean(), url: z.string().optional() });
export type CalendarFeedStatus = z.infer<typeof CalendarFeedStatus>;

/** POST /api/calendar/feed: the new address (webcal://); any earlier one stopped working. */
export const CalendarFeedAddress = z.object({ url: z.string().startsWith('webcal://') });
export type CalendarFeedAddress = z.infer<typeof CalendarFeedAddress>;

/** The feed itself, an iCalendar text (RFC 5545). */
export const CalendarFeedBody = z.string().startsWith('BEGIN:VCALENDAR');
