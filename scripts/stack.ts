/**
 * Runs the whole system on this machine: every service and the gateway as child processes with
 * prefixed logs, restarted if one exits, then demo data on an empty database. `make up` runs this
 * file; the end-to-end tests call `startStack()` with their own database, ports and NATS prefix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { baseConfigSchema, connectBus, createLogger, loadSigningKeys, repoRoot, requestRpc } from '@crewswap/kit';
import { RPC, SeedDemoPilotsReply, SeedDemoTripsReply } from '@crewswap/proto';
import { natsLoginEnv, startPrivateNats, type PrivateNats } from './nats-users';
import knexFactory from 'knex';
import { freePort } from '@crewswap/kit-testing';

/** Start order matters only for readiness: admin answers settings, auth and trips feed the rest. */
const SERVICES = [
  { name: 'admin', port: 8084 },
  { name: 'notifications', port: 8085 },
  { name: 'auth', port: 8081 },
  { name: 'trips', port: 8082 },
  { name: 'swaps', port: 8083 },
  { name: 'roster-ingest', port: 8086 },
  { name: 'links', port: 8088 },
  { name: 'realtime', port: 8087 },
] as const;

/**
 * Workers: services nothing routes to, started with the others but not waited for. Their health
 * and metrics port is 8090 locally and any free one in the test stacks. push-sender waits by
 * itself for notifications to migrate the schema it works in.
 */
const WORKERS = [{ name: 'push-sender', port: 8090 }] as const;

/** The variable the gateway reads a service's address from: `roster-ingest` -> `ROSTER_INGEST_URL`. */
const urlVariable = (name: string) => `${name.toUpperCase().replace(/-/g, '_')}_URL`;

export interface StackOptions {
  databaseUrl: string;
  natsUrl: string;
  natsPrefix?: string;
  gatewayPort: number;
  /** Service ports are basePort+1..; 8080 gives the documented 8081-8088. */
  basePort: number;
  mailDir: string;
  seedDemo: boolean;
  /** 'prefix' writes each line as `[service] ...`; 'silent' keeps child output to itself. */
  logs: 'prefix' | 'silent';
  env?: Record<string, string>;
  /**
   * roster-ingest's SMTP receiver. Defaults to 2525 for the documented ports (basePort 8080) and to
   * basePort+9 otherwise, so stacks started side by side (end-to-end tests) never share it.
   */
  smtpIngestPort?: number;
  /**
   * Processes of every service and worker (REPLICAS, 1 by default), the gateway balancing between
   * them: what only a second replica breaks shows up here, not first on a cluster. The first
   * replica has the ports above; the others have the same ports plus 100 (2, plus 200 for 3...)
   * beside the documented ports and free ones otherwise. Each roster-ingest replica receives mail
   * on an SMTP port of its own (the first on smtpIngestPort, the next on +1 or a free one).
   */
  replicas?: number;
  /**
   * NATS as production runs it: a nats-server of the stack's own (scripts/nats-users.ts), each
   * service its own user with proto's permissions, JetStream kept in natsStoreDir (a temporary
   * folder, removed at stop, unless given). `sharedNats: true` uses natsUrl instead, with no users.
   */
  sharedNats?: boolean;
  natsStoreDir?: string;
}

export interface Stack {
  url: string;
  /** How many times each service has exited and been started again (restart server does this). */
  restarts(): Record<string, number>;
  /** Each process's id while it runs (the load run reads their memory). */
  pids(): Record<string, number | undefined>;
  /** Waits until every service answers its readiness check again (after a restart). */
  ready(): Promise<void>;
  /** NATS's log lines about a service publishing or listening outside its permissions: none, or a test fails. */
  natsViolations(): string[];
  stop(): Promise<void>;
}

const COLOURS = [36, 35, 33, 32, 34, 31, 96];

export async function startStack(options: StackOptions): Promise<Stack> {
  const root = repoRoot();
  await ensureDatabase(options.databaseUrl);
  mkdirSync(options.mailDir, { recursive: true });
  const natsStore = options.natsStoreDir ?? mkdtempSync(join(tmpdir(), 'crewswap-stack-nats-'));
  const nats = options.sharedNats ? undefined : await startPrivateNats({ prefix: options.natsPrefix ?? '', storeDir: natsStore });
  const natsUrl = nats?.url ?? options.natsUrl;
  // Made once here so that processes starting together never race to create the key pair.
  const base = baseConfigSchema.parse(process.env);
  const keys = loadSigningKeys(base);
  const origin = `http://localhost:${options.gatewayPort}`;
  const commonEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: options.databaseUrl,
    NATS_URL: natsUrl,
    NATS_PREFIX: options.natsPrefix ?? '',
    MAIL_OUTBOX_DIR: options.mailDir,
    APP_ORIGIN: origin,
    EXTRA_ORIGINS: `http://127.0.0.1:${options.gatewayPort}`,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_PRIVATE_KEY: keys.privateKey ?? '',
    LOG_FORMAT: process.stdout.isTTY && options.logs === 'prefix' ? 'pretty' : 'json',
    ...options.env,
  };
  const children: Supervised[] = [];
  const present = SERVICES.filter((service) => existsSync(join(root, 'services', service.name, 'src', 'main.ts')));
  const replicas = options.replicas ?? 1;
  const documented = options.basePort === 8080;
  // Replica r's port: the first replica's plus 100 * r beside the documented ports; in the test
  // stacks, whose blocks of ten ports sit side by side, a free one.
  const replicaPort = async (first: number, replica: number) => (replica === 0 ? first : documented ? first + 100 * replica : freePort());
  const ports: Record<string, number[]> = {};
  for (const service of present) {
    const first = options.basePort + (service.port - 8080);
    ports[service.name] = await Promise.all(Array.from({ length: replicas }, (_, replica) => replicaPort(first, replica)));
  }
  const urlsOf = (name: string) => ports[name]!.map((port) => `http://127.0.0.1:${port}`);
  const urlOf = (name: string) => urlsOf(name)[0]!;
  // The gateway balances between a service's replicas: its <SERVICE>_URL lists them all.
  const urls: Record<string, string> = Object.fromEntries(present.map((service) => [urlVariable(service.name), urlsOf(service.name).join(',')]));
  // Every session guard asks auth and admin over HTTP while NATS is away (their first replica here;
  // on a cluster, the Service in front of them all).
  const sessionOwners = { AUTH_URL: urlOf('auth'), ADMIN_URL: urlOf('admin') };
  const smtpIngestPort = options.smtpIngestPort ?? (documented ? 2525 : options.basePort + 9);
  const replicaName = (name: string, replica: number) => (replica === 0 ? name : `${name}-${replica + 1}`);
  for (const [index, service] of present.entries()) {
    for (const [replica, port] of ports[service.name]!.entries()) {
      const own: Record<string, string> =
        service.name === 'roster-ingest' ? { SMTP_INGEST_PORT: String(replica === 0 ? smtpIngestPort : documented ? smtpIngestPort + replica : await freePort()) } : {};
      const env = { ...commonEnv, ...sessionOwners, ...own, ...natsLoginEnv(nats, service.name), OTEL_SERVICE_NAME: service.name, PORT: String(port) };
      children.push(supervise(root, replicaName(service.name, replica), env, options.logs, COLOURS[index % COLOURS.length]!, service.name));
    }
  }
  for (const worker of WORKERS) {
    if (!existsSync(join(root, 'services', worker.name, 'src', 'main.ts'))) continue;
    for (let replica = 0; replica < replicas; replica += 1) {
      const port = documented ? worker.port + 100 * replica : 0;
      const env = { ...commonEnv, ...sessionOwners, ...natsLoginEnv(nats, worker.name), OTEL_SERVICE_NAME: worker.name, PORT: String(port) };
      children.push(supervise(root, replicaName(worker.name, replica), env, options.logs, 90, worker.name));
    }
  }
  const waitAllReady = () => Promise.all(present.flatMap((service) => urlsOf(service.name).map((url) => waitReady(service.name, `${url}/readyz`))));
  const stop = async () => {
    await Promise.all(children.map((child) => child.stop()));
    await nats?.stop();
    if (!options.natsStoreDir) rmSync(natsStore, { recursive: true, force: true });
  };
  try {
    await waitAllReady();
    // Gateway metrics sit apart from its public port: 8089 locally; any free port for the
    // end-to-end stacks, whose blocks of ten ports are all taken.
    const metricsPort = options.gatewayPort === 8080 ? 8089 : 0;
    const gatewayEnv = { ...commonEnv, ...urls, OTEL_SERVICE_NAME: 'gateway', PORT: String(options.gatewayPort), METRICS_PORT: String(metricsPort) };
    children.push(supervise(root, 'gateway', gatewayEnv, options.logs, 37));
    await waitReady('gateway', `http://127.0.0.1:${options.gatewayPort}/healthz`);
    if (options.seedDemo) await seedDemo(options, natsUrl, nats);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: origin,
    restarts: () => Object.fromEntries(children.map((child) => [child.name, child.restarts()])),
    pids: () => Object.fromEntries(children.map((child) => [child.name, child.pid()])),
    ready: async () => {
      await waitAllReady();
    },
    natsViolations: () => nats?.violations() ?? [],
    stop,
  };
}

interface Supervised {
  name: string;
  restarts(): number;
  pid(): number | undefined;
  stop(): Promise<void>;
}

/** A process that ran this long was healthy: its next crash starts the back-off again. */
export const HEALTHY_RUN_MS = 60_000;

/**
 * The wait before restarting a process that exited: 500 ms more for each exit in a row, at most
 * 10 s, counted again from the start once the process has run a healthy minute (otherwise a
 * service that crashes once a day would, after a month, wait the maximum every time).
 */
export function restartBackoff(now: () => number = Date.now) {
  let restarts = 0;
  let startedAt = now();
  return {
    started(): void {
      startedAt = now();
    },
    /** Called when the process exits: the delay before starting it again. */
    nextDelay(): number {
      if (now() - startedAt >= HEALTHY_RUN_MS) restarts = 0;
      restarts += 1;
      return Math.min(10_000, 500 * restarts);
    },
  };
}

/** Runs one service, restarting it if it exits on its own (as 'restart server' asks it to). */
function supervise(
  root: string,
  name: string,
  env: Record<string, string>,
  logs: StackOptions['logs'],
  colour: number,
  /** The service's folder, when `name` is one of its replicas' (`swaps-2`). */
  folder = name,
): Supervised {
  const entry = join('services', folder, 'src', 'main.ts');
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  const backoff = restartBackoff();
  const label = process.stdout.isTTY ? `\x1b[${colour}m[${name}]\x1b[0m` : `[${name}]`;

  const start = () => {
    backoff.started();
    // STACK_CPU_PROF=<folder>: each process writes its threads' CPU profiles into <folder>/<name> when it
    // stops (where a load run's time went); the main thread's is the largest.
    const profile = process.env.STACK_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.STACK_CPU_PROF, name)}`] : [];
    child = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout!, child.stderr!]) {
      const lines = createInterface({ input: stream });
      lines.on('line', (line) => {
        if (logs === 'prefix') process.stdout.write(`${label} ${line}\n`);
      });
    }
    child.on('exit', (code, signal) => {
      if (stopping) return;
      restarts += 1;
      const delay = backoff.nextDelay();
      process.stdout.write(`${label} exited (${signal ?? code}); restarting in ${delay} ms\n`);
      setTimeout(start, delay).unref();
    });
  };
  start();

  return {
    name,
    restarts: () => restarts,
    pid: () => child?.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child?.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function waitReady(name: string, url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} did not become ready at ${url} within ${timeoutMs / 1000} s (see its log lines above)`);
}

async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = knexFactory({ client: 'pg', connection: server.toString(), pool: { min: 0, max: 1 } });
  try {
    const exists = await admin('pg_database').where({ datname: name }).first();
    if (!exists) await admin.raw('CREATE DATABASE ??', [name]);
  } finally {
    await admin.destroy();
  }
}

/** Demo pilots from auth, then their trips from trips: each service seeds only what it owns. */
async function seedDemo(options: StackOptions, natsUrl: string, nats: PrivateNats | undefined): Promise<void> {
  const log = createLogger('seed', { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
  const credentials = nats ? { user: nats.stack.user, password: nats.stack.password } : undefined;
  const bus = await connectBus({ url: natsUrl, prefix: options.natsPrefix ?? '', name: 'seed', log, credentials });
  try {
    const pilots = await requestRpc(bus, RPC.seedDemoPilots, { count: 60 }, SeedDemoPilotsReply, 30_000);
    const trips = await requestRpc(bus, RPC.seedDemoTrips, { pilots: pilots.pilots }, SeedDemoTripsReply, 60_000);
    process.stdout.write(`[seed] demo data: ${pilots.created} new test pilots, ${trips.created} new trips\n`);
  } catch (error) {
    process.stdout.write(`[seed] demo data skipped: ${(error as Error).message}\n`);
  } finally {
    await bus.close();
  }
}

/** REPLICAS: how many processes of each service (`make up REPLICAS=2`); 1 when unset. */
export function replicasFrom(env: NodeJS.ProcessEnv): number {
  const replicas = Number(env.REPLICAS ?? 1);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 9) throw new Error(`REPLICAS=${env.REPLICAS}: give a whole number from 1 to 9`);
  return replicas;
}

async function main(): Promise<void> {
  const env = process.env;
  const gatewayPort = Number(env.PORT ?? 8080);
  const stack = await startStack({
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crewswap',
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    natsPrefix: env.NATS_PREFIX ?? '',
    gatewayPort,
    basePort: Number(env.SERVICES_BASE_PORT ?? 8080),
    smtpIngestPort: env.SMTP_INGEST_PORT ? Number(env.SMTP_INGEST_PORT) : undefined,
    replicas: replicasFrom(env),
    // Streams and consumers outlive a restart, as the database does.
    natsStoreDir: join(repoRoot(), '.local', 'nats'),
    mailDir: env.MAIL_OUTBOX_DIR ?? join(repoRoot(), '.local', 'mail-outbox'),
    seedDemo: (env.SEED_DEMO ?? 'true') === 'true',
    logs: 'prefix',
    // Local use starts in testing mode so a newcomer can log in as any demo pilot.
    env: { TESTING_BUTTON_ENABLED: env.TESTING_BUTTON_ENABLED ?? 'true', TESTING_PASSWORD: env.TESTING_PASSWORD ?? 'letmein-crew' },
  });
  process.stdout.write(`\nCrewSwap is up at ${stack.url}  (Ctrl-C stops everything)\n\n`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping CrewSwap...\n');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

if (process.argv[1] && /stack\.ts$/.test(process.argv[1])) {
  main().catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
