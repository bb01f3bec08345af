import { baseConfigSchema, requiredInProduction } from '@crewswap/kit';
import { MIN_PASSWORD_LENGTH } from '@crewswap/proto';
import { z } from 'zod';

/** For local use only; the first start logs a warning while the master admin still has it. */
export const LOCAL_ADMIN_PASSWORD = 'change-me-now';

const optionalEmail = z.union([z.literal(''), z.email('must be an email address')]).optional();

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(1).max(65535).default(8084),
  /** The master admin created on the first start, when there is no admin at all. */
  ADMIN_EMAIL: z
    .email('must be an email address')
    .default('admin@crewswap.local')
    .transform((email) => email.toLowerCase()),
  ADMIN_PASSWORD: requiredInProduction(
    z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).default(LOCAL_ADMIN_PASSWORD),
  ),
  /** admin signs admin sessions. */
  JWT_PRIVATE_KEY: requiredInProduction(z.string().optional()),
  ADMIN_NAME: z.string().trim().min(1).max(200).default('Master Admin'),
  /** Names the product in the mail that carries a new daily access code. */
  PRODUCT_NAME: z.string().trim().min(1).default('CrewSwap'),
  // Initial setting values, applied only when a setting is first seeded; admins change them later.
  TESTING_BUTTON_ENABLED: z.enum(['true', 'false']).default('false'),
  TESTING_PASSWORD: z.string().max(2000).default(''),
  UPLOAD_EMAIL: optionalEmail,
  /** How often admin sessions idle past session_timeout_minutes are looked for. */
  ADMIN_SESSION_SWEEP_MS: z.coerce.number().int().min(1000).default(60_000),
  /** The roster upload address's fallback (decisions.md) when UPLOAD_EMAIL is unset. */
  ROSTER_UPLOAD_EMAIL: optionalEmail,
});
export type AdminConfig = z.infer<typeof configSchema>;
