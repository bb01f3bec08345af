import { z } from 'zod';
import { repoPath } from './paths';

/**
 * `CREWSWAP_ENV=production` (the Helm chart sets it) makes every variable marked with
 * `requiredInProduction` mandatory: its local default (a database on localhost, signing keys
 * generated into a folder, the local admin password) is wrong or unsafe on a real deployment,
 * so a missing one stops start-up instead of quietly using it. Unset or `local`, defaults apply.
 */
export const CREWSWAP_ENVS = ['local', 'production'] as const;

/** Marks a variable that production must set explicitly (see CREWSWAP_ENVS). */
export function requiredInProduction<T extends z.ZodType>(schema: T): T {
  return schema.meta({ requiredInProduction: true });
}

/** Variables every service reads; each service extends this with its own. */
export const baseConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: requiredInProduction(z.url().default('postgres://postgres@127.0.0.1:5432/crewswap')),
  NATS_URL: requiredInProduction(z.string().default('nats://127.0.0.1:4222')),
  /**
   * The service's own NATS user (the chart: a Secret per service; `make up`: the stack's
   * nats-server), or a creds file (`NATS_CREDS`, an NKey/JWT user). Unset: no credentials, for a
   * NATS that lets anyone in (the shared test server). NATS_CA_FILE: the CA that signed a `tls://`
   * NATS's certificate, when the system's CAs do not know it.
   */
  NATS_USER: z.string().optional(),
  NATS_PASSWORD: z.string().optional(),
  NATS_CREDS: z.string().optional(),
  NATS_CA_FILE: z.string().optional(),
  /** Prefixes every subject and stream: lets test files share one NATS server without meeting. */
  NATS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'NATS_PREFIX may hold only a-z, 0-9 and _')
    .default(''),
  /**
   * How JetStream keeps each stream: on how many servers (3 on a NATS cluster; a single server
   * keeps 1 whatever is asked), and how much history before the oldest events go (0: no limit).
   */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  NATS_STREAM_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(30 * 24 * 3600),
  /**
   * No byte limit unless set: NATS reserves a stream's byte limit from its storage when the stream
   * is made, so a default would reserve six times it for every NATS_PREFIX (every test file and
   * test stack) and soon fill a shared development server. Production sets it (the chart), with
   * JetStream storage of at least six times it.
   */
  NATS_STREAM_MAX_BYTES: z.coerce.number().int().min(0).default(0),
  /** pretty on a terminal and JSON elsewhere, unless set. */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PEM keys for session tokens. When both are unset, keys are kept in SIGNING_KEYS_DIR (local use). */
  JWT_PUBLIC_KEY: requiredInProduction(z.string().optional()),
  JWT_PRIVATE_KEY: z.string().optional(),
  SIGNING_KEYS_DIR: z.string().default(repoPath('.local', 'keys')),
  /**
   * How long a service that can reach neither NATS nor the session's owner (auth, admin) keeps
   * serving the sessions it knows with the revocations it already knows; after that it answers 503.
   */
  SESSION_OUTAGE_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * Where auth (pilot sessions) and admin (admin sessions) answer `GET /internal/sessions/{id}`:
   * what the session guard asks while it cannot ask over NATS.
   */
  AUTH_URL: requiredInProduction(z.url().default('http://127.0.0.1:8081')),
  ADMIN_URL: requiredInProduction(z.url().default('http://127.0.0.1:8084')),
  /**
   * Where spans go: an OTLP/HTTP endpoint (Tempo's or a collector's port 4318). Unset, no span is
   * recorded or sent; trace ids still cross every hop and name every log line.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** The service spans are recorded under (the chart and scripts/stack.ts set it per process). */
  OTEL_SERVICE_NAME: z.string().min(1).default('crewswap'),
  /**
   * Check every route's answer against its proto schema with zod, and answer 500 when it does not
   * match. For tests (the kit's test config turns it on): in production the serializer already
   * keeps answers to their schema, and the check would cost every request a second walk.
   */
  RESPONSE_VALIDATION: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
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
  const lines = result.success ? [] : result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  lines.push(...productionProblems(schema, env));
  if (lines.length === 0 && result.success) return result.data;
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** The variables a schema marks `requiredInProduction`: what a production deployment must set. */
export function productionRequiredKeys(schema: z.ZodType): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, field]) => field.meta()?.requiredInProduction === true)
    .map(([key]) => key);
}

function productionProblems(schema: z.ZodType, env: NodeJS.ProcessEnv): string[] {
  const mode = env.CREWSWAP_ENV ?? 'local';
  if (!(CREWSWAP_ENVS as readonly string[]).includes(mode)) return [`  CREWSWAP_ENV: must be ${CREWSWAP_ENVS.join(' or ')}`];
  if (mode !== 'production') return [];
  return productionRequiredKeys(schema)
    .filter((key) => !env[key]?.trim())
    .map((key) => `  ${key}: must be set when CREWSWAP_ENV=production (its local default is not for production)`);
}

/**
 * `loadConfig` for a command (a script run by hand or a job): a wrong variable prints its lines
 * and exits 1, without a stack.
 */
export function loadConfigOrExit<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    return process.exit(1);
  }
}
