import { baseConfigSchema, vapidConfig } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  /** Health, readiness and metrics only: push-sender serves no API. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  ...vapidConfig,
  /** Push commands older than this (by their envelope's occurredAt) are dropped: stale alerts help nobody. */
  PUSH_MAX_AGE_MS: z.coerce.number().int().min(1000).default(5 * 60_000),
  /** Pushes in flight at once. */
  PUSH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /**
   * How long a start waits for notifications to have migrated the notifications schema (its
   * migrate Job, or notifications starting beside it) before giving up, saying so.
   */
  SCHEMA_WAIT_MS: z.coerce.number().int().min(0).default(120_000),
});
export type Config = z.infer<typeof configSchema>;
