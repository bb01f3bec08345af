import { baseConfigSchema } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(8082),
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
