import { createHash, randomBytes } from 'node:crypto';
import { notFound, type Clock } from '@crewswap/kit';
import { CALENDAR_FEED_MESSAGES, type CalendarFeedAddress, type CalendarFeedStatus } from '@crewswap/proto';
import type { AgreedSwapRepository } from '../../data/agreed-swaps';
import type { CalendarFeedRepository } from '../../data/calendar-feeds';
import type { TripRepository } from '../../data/trips';
import { tripsCalendar } from './ical';

/** A token is 128 random bits: unguessable, so the address alone may open the feed. */
const newToken = () => randomBytes(16).toString('base64url');

/**
 * Tokens are looked up by their SHA-256. A fast hash is enough: the token is random, not a
 * password, so there is nothing to guess from a hash.
 */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A feed's ETag, and its calendar text made only when asked for: a calendar app polling with the
 * ETag it holds is answered 304 without the text being written.
 */
export interface FeedCalendar {
  etag: string;
  body(): string;
}

/**
 * Changes whenever the calendar text would: a trip's every change bumps its version, a trip that
 * ends (or is added, or goes) changes the list. Bump FEED_FORMAT when the writer's output changes.
 */
const FEED_FORMAT = '2';
const etagOf = (name: string, trips: { trip: { id: string }; version: number; agreed: boolean }[]) => {
  const hash = createHash('sha256').update(`${FEED_FORMAT}\n${name}\n`);
  // An agreed swap changes the title without a new trip version.
  for (const { trip, version, agreed } of trips) hash.update(`${trip.id}:${version}:${agreed ? 'agreed' : ''}\n`);
  return `"${hash.digest('base64url').slice(0, 27)}"`;
};

export interface CalendarFeedDeps {
  feeds: CalendarFeedRepository;
  trips: TripRepository;
  agreedSwaps: AgreedSwapRepository;
  clock: Clock;
  /** The app's origin (APP_ORIGIN): the feed's address is `webcal://` on the same host. */
  origin: string;
  /** The product's name, in the calendar's name. */
  product: string;
}

export function createCalendarFeed(deps: CalendarFeedDeps) {
  const addressOf = (token: string) => `${deps.origin.replace(/^https?:/, 'webcal:').replace(/\/+$/, '')}/api/calendar/${token}.ics`;
  return {
    async status(pilotId: string): Promise<CalendarFeedStatus> {
      return { enabled: await deps.feeds.isEnabled(pilotId) };
    },

    /** Turns the feed on, or gives it a new address: the old one answers 404 from now on. */
    async rotate(pilotId: string): Promise<CalendarFeedAddress> {
      const token = newToken();
      await deps.feeds.replace(pilotId, hashToken(token));
      return { url: addressOf(token) };
    },

    async turnOff(pilotId: string): Promise<void> {
      await deps.feeds.remove(pilotId);
    },

    /** The pilot's trips that have not ended yet; 404 for a token that is not (or no longer) a feed. */
    async read(token: string): Promise<FeedCalendar> {
      const pilotId = await deps.feeds.pilotOf(hashToken(token));
      if (!pilotId) throw notFound(CALENDAR_FEED_MESSAGES.feedNotFound);
      const upcoming = await deps.trips.listUpcoming(pilotId, deps.clock.today());
      const agreed = await deps.agreedSwaps.agreedAmong(upcoming.map(({ trip }) => trip.id));
      const trips = upcoming.map((entry) => ({ ...entry, agreed: agreed.has(entry.trip.id) }));
      const name = `${deps.product} trips`;
      return { etag: etagOf(name, trips), body: () => tripsCalendar({ name, trips }) };
    },
  };
}
export type CalendarFeed = ReturnType<typeof createCalendarFeed>;
