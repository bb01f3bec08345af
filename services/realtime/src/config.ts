import { baseConfigSchema } from '@crewswap/kit';
import { z } from 'zod';

/** No database: realtime holds only open streams, fed from NATS. */
export const configSchema = baseConfigSchema.omit({ DATABASE_URL: true }).extend({
  PORT: z.coerce.number().int().min(1).max(65535).default(8087),
  /**
   * Bytes a stream may have waiting for a slow client before its updates are folded into one
   * 'trips-updated' sent when it catches up (memory per connection stays bounded).
   */
  SSE_BUFFER_LIMIT_BYTES: z.coerce.number().int().min(1024).default(16 * 1024),
});
export type RealtimeConfig = z.infer<typeof configSchema>;
