import { baseConfigSchema } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(8088),
  /** How long a destinations check waits for trips before answering 'Error validating airport code'. */
  AIRPORT_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
});
export type Config = z.infer<typeof configSchema>;
