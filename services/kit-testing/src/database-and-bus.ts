/**
 * Helpers for tests against the real Postgres and NATS: each test file gets its own database and
 * its own subject prefix, so files run in parallel and leave nothing behind.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import knexFactory from 'knex';
import { baseConfigSchema, generateSigningKeys, type BaseConfig } from '@crewswap/kit';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = uniqueName('crewswap_test');
  const admin = knexFactory({ client: 'pg', connection: withDatabase(ADMIN_URL, 'postgres'), pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ??', [name]);
  await admin.destroy();
  const url = withDatabase(ADMIN_URL, name);
  return {
    url,
    async drop() {
      const cleanup = knexFactory({ client: 'pg', connection: withDatabase(ADMIN_URL, 'postgres'), pool: { min: 0, max: 1 } });
      await cleanup.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
      await cleanup.destroy();
    },
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const testKeys = generateSigningKeys();

/** A base config for one test file: its database, its NATS prefix, quiet logs, fixed keys. */
export function testBaseConfig(databaseUrl: string, prefix = uniqueName('t')): BaseConfig {
  return baseConfigSchema.parse({
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    NATS_PREFIX: prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    LOG_FORMAT: 'json',
    JWT_PUBLIC_KEY: testKeys.publicKey,
    JWT_PRIVATE_KEY: testKeys.privateKey,
    // Nobody answers here (never a running stack's auth): a test that serves auth or admin over HTTP sets its address.
    AUTH_URL: 'http://127.0.0.1:1',
    ADMIN_URL: 'http://127.0.0.1:1',
    // Every answer a test receives has been checked against its proto schema.
    RESPONSE_VALIDATION: 'true',
  });
}

/**
 * A bench's configuration: as tests have it, but answers are not checked against their schemas,
 * as in production (RESPONSE_VALIDATION is off there): a bench measures what pilots get.
 */
export function benchBaseConfig(databaseUrl: string, prefix?: string): BaseConfig {
  return { ...testBaseConfig(databaseUrl, prefix), RESPONSE_VALIDATION: false };
}

export const TEST_KEYS = testKeys;

/** A destination for a logger (createLogger's `output`, pino's second argument) whose JSON lines a test reads. */
export function logLines<Line = Record<string, unknown>>(): { output: Writable; lines: Line[] } {
  const lines: Line[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  return { output, lines };
}

/** Polls until `check` returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}

/**
 * A throwaway nats-server with JetStream on a free port, which a test can stop and start again
 * (same port, same store) to prove that nothing is lost while NATS is away.
 */
export async function startThrowawayNats(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void> }> {
  const { spawn } = await import('node:child_process');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const net = await import('node:net');
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'nats-'));
  let child: import('node:child_process').ChildProcess | undefined;
  const waitFor = async (open: boolean) => {
    await eventually(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(open);
          });
          socket.once('error', () => resolve(!open));
        }),
      10_000,
    );
  };
  const start = async () => {
    child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
    await waitFor(true);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    async stop() {
      child?.kill('SIGTERM');
      await waitFor(false);
    },
  };
}

/**
 * The Postgres server programs (initdb, pg_ctl): POSTGRES_BIN_DIR, else Debian's and Ubuntu's
 * /usr/lib/postgresql/<version>/bin (newest first), else the PATH. Undefined when there are none.
 */
export async function findPostgresBinaries(): Promise<string | undefined> {
  const { existsSync, readdirSync } = await import('node:fs');
  const { delimiter, join } = await import('node:path');
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  const candidates = [
    process.env.POSTGRES_BIN_DIR,
    ...versions.map((version) => join(debian, version, 'bin')),
    ...(process.env.PATH ?? '').split(delimiter),
  ];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/**
 * A throwaway Postgres cluster in a temporary directory on a free port, which a test can stop
 * and start again (same port, same data) to see what a database outage looks like. The shared
 * Postgres is never touched. initdb refuses to run as root, so as root the cluster belongs to
 * the `postgres` user.
 */
export async function startThrowawayPostgres(binaries: string): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  const { execFileSync } = await import('node:child_process');
  const { chownSync, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(binaries, program), ...args]] : [join(binaries, program), args];
    execFileSync(file, argv, { stdio: 'ignore', cwd: dir });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = async () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = async () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port nothing listens on now (the OS's choice), for a server a test starts apart. */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let pilotSeq = 0;

/** A complete pilot profile as auth publishes it, unique per call; override what a test is about. */
export function testPilot(overrides: Partial<import('@crewswap/proto').Pilot> = {}): import('@crewswap/proto').Pilot {
  pilotSeq += 1;
  const tag = `${randomBytes(3).toString('hex')}${pilotSeq}`;
  return {
    id: randomUUID(),
    employeeId: String(100000 + ((Number.parseInt(tag.slice(0, 5), 16) + pilotSeq) % 900000)),
    firstName: 'Amy',
    lastName: 'Stone',
    email: `pilot.${tag}@fly.virgin.com`,
    phone: '+447700900000',
    rank: 'CP',
    fleet: 'A350',
    base: 'LHR',
    apic: true,
    ltc: false,
    usualReq: true,
    allVisible: true,
    testData: false,
    emailVerified: true,
    searchDayRange: null,
    rankLastChanged: null,
    fleetLastChanged: null,
    ltcLastChanged: null,
    usualReqOff: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * A complete trip as trips publishes it, a manual one of the pilot's own; override what a test is
 * about. Without a pilot it belongs to a new pilot id.
 */
export function testTrip(overrides: Partial<import('@crewswap/proto').Trip> = {}): import('@crewswap/proto').Trip {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    pilotId: randomUUID(),
    source: 'manual',
    flightNoStart: 'VS003',
    flightNoEnd: 'VS004',
    aircraft: 'A350',
    route: 'JFK',
    startDate: '2026-11-10',
    endDate: '2026-11-12',
    isSwappable: false,
    offerType: 'swap',
    training: false,
    requested: false,
    companions: null,
    swapDescription: null,
    icsDescription: null,
    searchStartDate: null,
    searchEndDate: null,
    isStandby: false,
    reportAt: null,
    releaseAt: null,
    sectors: null,
    blockMinutes: null,
    dutyMinutes: null,
    nightsAway: 2,
    landings: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time (user and system) a process has used so far, in ms, from /proc (Linux; NaN elsewhere).
 * Benches print it per request beside latency: on a loaded machine wall time swings with what
 * else runs, CPU time hardly does.
 */
export function processCpuMs(pid: number = process.pid): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * The whole machine's CPU ticks so far, busy and in all, from /proc/stat (Linux): two readings
 * tell how near the cores were to full between them (benches print it beside their figures).
 */
export function machineCpuTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - fields[3]! - fields[4]!, total };
}

/** Percent of the machine's CPU busy between two `machineCpuTicks` readings. */
export const machineBusyPercent = (before: { busy: number; total: number }, after: { busy: number; total: number }): number =>
  (100 * (after.busy - before.busy)) / Math.max(1, after.total - before.total);

/**
 * CPU time used so far by each Postgres backend connected to the database `db` reads (Postgres on
 * this machine), in ms by pid: with processCpuMs, what a service and its queries cost.
 */
export async function databaseCpuMs(db: import('knex').Knex): Promise<Map<number, number>> {
  const result = await db.raw<{ rows: { pid: number }[] }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  return new Map(result.rows.map((row) => [row.pid, processCpuMs(row.pid)] as const).filter(([, ms]) => !Number.isNaN(ms)));
}

/**
 * The backends' CPU between two databaseCpuMs readings: a backend that started in between counts
 * whole, one that ended in between is lost (an undercount, never a negative figure).
 */
export function databaseCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * A session token signed with the test key by no issuer at all (as a thief of the key would sign
 * it): unlike signPilotToken and signAdminToken, it does not tell this process's guards that the
 * session was issued, so a guard learns of it only as it would in another process.
 */
export async function signedElsewhere(claims: { sessionId: string; pilotId: string } | { sessionId: string; adminId: string; isMasterAdmin?: boolean }): Promise<string> {
  const { default: jwt } = await import('jsonwebtoken');
  const payload =
    'pilotId' in claims
      ? { sid: claims.sessionId, sub: claims.pilotId, typ: 'pilot' }
      : { sid: claims.sessionId, sub: claims.adminId, typ: 'admin', master: claims.isMasterAdmin === true, perms: [] };
  return jwt.sign(payload, testKeys.privateKey, { algorithm: 'ES256', expiresIn: 3600 });
}

/**
 * Calls `exportName` of the TypeScript module at `modulePath` with `argument` in `count`
 * processes of their own, each released at the same moment (as replicas starting together), and
 * resolves with what each returned (as JSON). For races between processes, which one process
 * cannot show.
 */
export async function callInProcessesAtOnce<T>(modulePath: string, exportName: string, argument: unknown, count: number): Promise<T[]> {
  const { spawn } = await import('node:child_process');
  // Starting a process with tsx takes about a second on a busy machine.
  const startAt = Date.now() + 1_000 * Math.max(4, count);
  const script = `
    import * as target from ${JSON.stringify(modulePath)};
    while (Date.now() < ${startAt});
    process.stdout.write(JSON.stringify(target[${JSON.stringify(exportName)}](${JSON.stringify(argument)})));
  `;
  const once = () =>
    new Promise<T>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${exportName} exited with ${code}: ${err}`))));
    });
  return Promise.all(Array.from({ length: count }, once));
}
