import { z } from 'zod';
import { repoPath } from './paths';

/** Variables every service reads; each service extends this with its own. */
export const baseConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/crewswap'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Prefixes every subject and stream: lets test files share one NATS server without meeting. */
  NATS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'NATS_PREFIX may hold only a-z, 0-9 and _')
    .default(''),
  /** pretty on a terminal and JSON elsewhere, unless set. */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PEM keys for session tokens. When both are unset, keys are kept in SIGNING_KEYS_DIR (local use). */
  JWT_PUBLIC_KEY: z.string().optional(),
  JWT_PRIVATE_KEY: z.string().optional(),
  SIGNING_KEYS_DIR: z.string().default(repoPath('.local', 'keys')),
  /** Set true wherever the app is served over https. */
  SECURE_COOKIES: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {}

/**
 * Parses the environment with the service's schema. A wrong or missing variable stops start-up
 * with one line per problem naming the variable.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
