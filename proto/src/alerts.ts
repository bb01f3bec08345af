import { z } from 'zod';
import { IsoDate } from './common';
import { MAX_WISH_DESTINATIONS, MAX_WISHES } from './constants';

/**
 * Alerts that matter (issue 39): wishes, urgent offers, quiet hours, the daily digest and the bell.
 * Wishes are kept and matched by swaps (docs/DECISIONS.md, "Wishes live where offers are matched").
 */

export const WISH_MESSAGES = {
  tooMany: `You can save up to ${MAX_WISHES} wishes. Delete one to add another.`,
  notFound: 'Wish not found',
  tripNotFound: 'Trip not found',
  saved: 'Wish saved',
  deleted: 'Wish deleted',
} as const;

const Destination = z
  .string('Each destination is a 3-letter airport code (e.g. JFK)')
  .transform((code) => code.trim().toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{3}$/, 'Each destination is a 3-letter airport code (e.g. JFK)'));

/** POST/PUT /api/notifications/wishes: what the pilot wants; dates and trip are optional. */
export const WishBody = z
  .strictObject({
    destinations: z
      .array(Destination, 'Choose at least one destination')
      .min(1, 'Choose at least one destination')
      .max(MAX_WISH_DESTINATIONS, `A wish lists at most ${MAX_WISH_DESTINATIONS} destinations`),
    startDate: IsoDate.nullable().optional(),
    endDate: IsoDate.nullable().optional(),
    /** Only offers that could take this trip of mine. */
    forTripId: z.uuid('forTripId must be one of your trips').nullable().optional(),
  })
  .refine((wish) => !wish.startDate || !wish.endDate || wish.endDate >= wish.startDate, { message: 'End date cannot be before start date', path: ['endDate'] });
export type WishBody = z.infer<typeof WishBody>;

export const Wish = z.object({
  id: z.uuid(),
  destinations: z.array(z.string()),
  startDate: IsoDate.nullable(),
  endDate: IsoDate.nullable(),
  forTripId: z.uuid().nullable(),
  /** Current offers that match it (the swap rule, the destinations and the dates). */
  matchingOffers: z.number().int(),
  createdAt: z.string(),
});
export type Wish = z.infer<typeof Wish>;
export const WishList = z.array(Wish);
export type WishList = z.infer<typeof WishList>;

/** An offer starting within this many hours is urgent: it is alerted at once, 'Urgent' in the title. */
export const URGENT_HOURS = 48;

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
export const TimeZone = z.string('timeZone is required').max(64).refine(isTimeZone, 'timeZone must be a time zone such as Europe/London');
const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Times must be HH:MM (24-hour)');

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time ('HH:MM') at `at` in a time zone: quiet hours and the digest's hour are the pilot's own. */
export function localTime(at: Date, timeZone: string): string {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clockFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** Alerts in these hours of the pilot's own time zone wait and go out, folded into one, when they end. */
export const QuietHours = z
  .strictObject({ start: ClockTime, end: ClockTime, timeZone: TimeZone })
  .refine((quiet) => quiet.start !== quiet.end, 'Quiet hours must start and end at different times');
export type QuietHours = z.infer<typeof QuietHours>;

/** The daily digest mail, at this hour of the pilot's time zone. */
export const DigestPreference = z.strictObject({
  hour: z.number('hour must be 0 to 23').int('hour must be 0 to 23').min(0, 'hour must be 0 to 23').max(23, 'hour must be 0 to 23'),
  timeZone: TimeZone,
});
export type DigestPreference = z.infer<typeof DigestPreference>;

/** Why an alert reached the pilot: what the bell shows beside it. */
export const AlertReason = z.enum(['offer', 'wish', 'urgent', 'proposal', 'roster_change']);
export type AlertReason = z.infer<typeof AlertReason>;

export const BellEntry = z.object({
  id: z.uuid(),
  reason: AlertReason,
  title: z.string(),
  body: z.string(),
  url: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type BellEntry = z.infer<typeof BellEntry>;
export const BellList = z.object({ entries: z.array(BellEntry), unread: z.number().int() });
export type BellList = z.infer<typeof BellList>;

/** POST /api/notifications/bell/read: these entries, or every one when `ids` is left out. */
export const MarkBellReadBody = z.strictObject({ ids: z.array(z.uuid('Not a valid id')).max(200).optional() });
export type MarkBellReadBody = z.infer<typeof MarkBellReadBody>;
export const MarkBellReadResponse = z.object({ unread: z.number().int() });

/** GET /api/notifications/digest/unsubscribe?token=: the mail's one-click link, no login. */
export const DigestUnsubscribeQuery = z.strictObject({ token: z.string('The link is incomplete').min(1, 'The link is incomplete').max(2000) });
export const DIGEST_MESSAGES = {
  unsubscribed: 'You will no longer receive the daily digest.',
  badLink: 'This unsubscribe link is not valid. Turn the digest off in the app instead.',
} as const;
