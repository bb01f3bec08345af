import { baseConfigSchema } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(8082),
  /** How often the purge scheduler looks whether today's (Europe/London) purge has run. */
  PURGE_CHECK_INTERVAL_MS: z.coerce.number().int().min(1000).default(60 * 60 * 1000),
  /** Trips that ended more than this many days ago are purged daily. */
  PURGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(30).default(7),
  PURGE_SCHEDULER_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /**
   * A pilot who just registered may add a trip before auth's event reaches the directory; the
   * request waits this long for the profile before answering 503.
   */
  PROFILE_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(3000),
  /**
   * Every pilot of a rank and fleet opening the Master Calendar reads the same answer, and every
   * Crossover Calendar picks from the same groups: each replica keeps them this long (0 = never
   * kept; unset = 15 s). Optional so that apps built in code (tests, benches) need not name it.
   */
  MASTER_CALENDAR_CACHE_MS: z.coerce.number().int().min(0).max(300_000).optional(),
});
export type Config = z.infer<typeof configSchema>;
