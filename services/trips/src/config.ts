import { baseConfigSchema, requiredInProduction } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(8082),
  /**
   * Where the app is served (as auth's and the gateway's): a pilot's calendar feed address
   * (webcal://) is made from it. Unset: http://localhost:8080. Optional so that apps built in
   * code (tests, benches) need not name it.
   */
  APP_ORIGIN: requiredInProduction(z.url().optional()),
  /** The product's name (as auth's), in the calendar feed's name. Unset: CrewSwap. */
  PRODUCT_NAME: z.string().min(1).optional(),
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
