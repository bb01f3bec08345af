import { baseConfigSchema } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(1).max(65535).default(8083),
  /** How long the start-up read of the admin settings waits before relying on the event projection alone. */
  SETTINGS_RPC_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * How long a read that must see a change trips made a moment ago waits for the read model to
   * catch up: Push Alert (a just-saved description counts) and Find swaps on a trip just added
   * (or by a pilot just registered).
   */
  TRIPS_CATCH_UP_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /**
   * An offer event older than this alerts nobody: replaying a long stream into a new consumer
   * must not alert pilots about every offer ever made. It covers a long outage of swaps.
   */
  OFFER_ALERT_MAX_AGE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(1440),
  /**
   * Rosters the flight time limitations check keeps in memory once read (data/roster-cache.ts),
   * the least recently used going first: about 55 KB each for a pilot with 40 timed trips, their
   * duties and what the check keeps of them (measured), so 2,000 is about 110 MB.
   */
  ROSTER_CACHE_PILOTS: z.coerce.number().int().min(0).max(100_000).default(2000),
  /** The app's origin, for the daily digest's links. */
  APP_ORIGIN: z.url().default('http://localhost:8080'),
  PRODUCT_NAME: z.string().trim().min(1).default('CrewSwap'),
});
export type Config = z.infer<typeof configSchema>;

