import { createHash, randomBytes } from 'node:crypto';
import { notFound, type Clock } from '@crewswap/kit';
import { LRUCache } from 'lru-cache';
import { CALENDAR_FEED_MESSAGES, type CalendarFeedAddress, type CalendarFeedStatus } from '@crewswap/proto';
import type { CalendarFeedRepository, FeedTripVersion } from '../../data/calendar-feeds';
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
 * A feed's ETag, and its calendar text read only when asked for: a calendar app polling with the
 * ETag it holds is answered 304 without the trips being read or the text written.
 */
export interface FeedCalendar {
  etag: string;
  /** The text and its own ETag, which is `etag` unless the trips changed in between. */
  body(): Promise<{ etag: string; text: string }>;
}

/**
 * Calendar texts kept by their ETag, which names every trip and version in them: a feed read
 * again with nothing changed (a calendar app that does not send If-None-Match, or many devices)
 * is sent without its trips being read or its text written again. About 30 KB a feed of 60 trips.
 */
const CACHED_FEEDS_CHARS = 16 * 1024 * 1024;

/**
 * Changes whenever the calendar text would: a trip's every change bumps its version, a trip that
 * ends (or is added, or goes) changes the list. Bump FEED_FORMAT when the writer's output changes.
 */
const FEED_FORMAT = '2';
const etagOf = (name: string, trips: FeedTripVersion[]) => {
  const hash = createHash('sha256').update(`${FEED_FORMAT}\n${name}\n`);
  // An agreed swap changes the title without a new trip version.
  for (const { id, version, agreed } of trips) hash.update(`${id}:${version}:${agreed ? 'agreed' : ''}\n`);
  return `"${hash.digest('base64url').slice(0, 27)}"`;
};

export interface CalendarFeedDeps {
  feeds: CalendarFeedRepository;
  trips: TripRepository;
  clock: Clock;
  /** The app's origin (APP_ORIGIN): the feed's address is `webcal://` on the same host. */
  origin: string;
  /** The product's name, in the calendar's name. */
  product: string;
}

export function createCalendarFeed(deps: CalendarFeedDeps) {
  const texts = new LRUCache<string, string>({ maxSize: CACHED_FEEDS_CHARS, sizeCalculation: (text) => text.length });
  const name = `${deps.product} trips`;
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
      const today = deps.clock.today();
      // One query for the ETag: the pilot, and the upcoming trips' ids, versions and agreed swaps.
      const feed = await deps.feeds.versionsOf(hashToken(token), today);
      if (!feed) throw notFound(CALENDAR_FEED_MESSAGES.feedNotFound);
      const etag = etagOf(name, feed.trips);
      return {
        etag,
        body: async () => {
          const cached = texts.get(etag);
          if (cached !== undefined) return { etag, text: cached };
          // Read whole; its ETag is made again from what was read, so text and tag always agree.
          const trips = await deps.trips.listUpcoming(feed.pilotId, today);
          const text = tripsCalendar({ name, trips });
          const read = etagOf(name, trips.map(({ trip, version, agreed }) => ({ id: trip.id, version, agreed })));
          texts.set(read, text);
          return { etag: read, text };
        },
      };
    },
  };
}
export type CalendarFeed = ReturnType<typeof createCalendarFeed>;
