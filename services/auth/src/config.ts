import { baseConfigSchema, requiredInProduction } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(8081),
  /** Login emails are prefix + '@' + this domain. */
  COMPANY_EMAIL_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'COMPANY_EMAIL_DOMAIN must be a domain such as fly.virgin.com')
    .default('fly.virgin.com'),
  /** Where the app is served; links in mails point here. */
  APP_ORIGIN: requiredInProduction(z.url().default('http://localhost:8080')),
  /** auth signs pilot sessions. */
  JWT_PRIVATE_KEY: requiredInProduction(z.string().optional()),
  PRODUCT_NAME: z.string().min(1).default('CrewSwap'),
  /** log2 of scrypt's cost N. 15 costs ~100 ms a hash; tests lower it to stay fast. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(17).default(15),
  /** How long settings read from admin are cached (admin's change events refresh them sooner). */
  SETTINGS_CACHE_MS: z.coerce.number().int().min(0).default(60_000),
  /** How often idle sessions are looked for. */
  SESSION_SWEEP_MS: z.coerce.number().int().min(1000).default(30_000),
});
export type Config = z.infer<typeof configSchema>;

