/**
 * Starts other services in a test's own process, by name: a test that needs the real trips or
 * auth next to its own service asks for it here instead of reaching into that service's `src`.
 * Each service is loaded through its package (`@crewswap/<name>`, the `createApp` and
 * `configSchema` its `src/index.ts` exports), so a test depends on what a service offers, not on
 * how its folders are laid out. In-process rather than child processes (as scripts/stack.ts runs
 * them): the tests inject requests, read `routeList` and drive repositories and use cases.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseConfig } from '@crewswap/kit';

interface ServicePackages {
  admin: typeof import('@crewswap/admin');
  auth: typeof import('@crewswap/auth');
  trips: typeof import('@crewswap/trips');
  swaps: typeof import('@crewswap/swaps');
  notifications: typeof import('@crewswap/notifications');
  'push-sender': typeof import('@crewswap/push-sender');
  'roster-ingest': typeof import('@crewswap/roster-ingest');
  links: typeof import('@crewswap/links');
  realtime: typeof import('@crewswap/realtime');
}
export type ServiceName = keyof ServicePackages;
export type StartedService<N extends ServiceName> = Awaited<ReturnType<ServicePackages[N]['createApp']>>;
type OptionsOf<N extends ServiceName> = Parameters<ServicePackages[N]['createApp']>[1];

/**
 * What each service needs beyond the base config to start in a test: cheap password hashes, no
 * SMTP port of its own, mail written to a fresh folder, short waits for an admin that may not run.
 */
const TEST_ENV: Record<ServiceName, () => Record<string, string>> = {
  admin: () => ({}),
  auth: () => ({ PASSWORD_HASH_COST: '10' }),
  trips: () => ({}),
  swaps: () => ({ SETTINGS_RPC_TIMEOUT_MS: '500' }),
  notifications: () => ({ MAIL_OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'crewswap-mail-')) }),
  'push-sender': () => ({}),
  'roster-ingest': () => ({ SMTP_INGEST_PORT: '0', SMTP_INGEST_HOST: '127.0.0.1' }),
  links: () => ({}),
  realtime: () => ({}),
};

export interface StartServiceOptions<N extends ServiceName> {
  /** Environment variables as a deployment sets them, checked by the service's own schema. */
  env?: Record<string, string>;
  /** What the service's createApp takes besides its config (clock, settings, keys, ...). */
  options?: OptionsOf<N>;
}

/** One service on `base` (its database, NATS prefix and keys, from testBaseConfig), on a free port. */
export async function startService<N extends ServiceName>(name: N, base: BaseConfig, more: StartServiceOptions<N> = {}): Promise<StartedService<N>> {
  const { createApp, configSchema } = (await import(`@crewswap/${name}`)) as ServicePackages[N];
  const config = { ...configSchema.parse({ ...TEST_ENV[name](), ...more.env }), ...base, PORT: 0 };
  return (createApp as (config: unknown, options: unknown) => Promise<StartedService<N>>)(config, more.options ?? {});
}

/**
 * Several services on one database and NATS prefix, as a deployment runs them (a schema each).
 * Admin starts first when named: the others ask it for settings as they start.
 */
export async function startServices<N extends ServiceName>(
  names: readonly N[],
  base: BaseConfig,
  more: { env?: Partial<Record<N, Record<string, string>>>; options?: OptionsOf<N> } = {},
): Promise<(StartedService<N> & { name: N })[]> {
  const start = async (name: N) => ({ ...(await startService(name, base, { env: more.env?.[name], options: more.options })), name });
  const first = names.filter((name) => name === 'admin');
  const started = await Promise.all(first.map(start));
  return [...started, ...(await Promise.all(names.filter((name) => name !== 'admin').map(start)))];
}
