/**
 * Helpers for tests against the real Postgres and NATS: each test file gets its own database and
 * its own subject prefix, so files run in parallel and leave nothing behind.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import { baseConfigSchema, type BaseConfig } from './config';
import { generateSigningKeys } from './keys';

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
  });
}

export const TEST_KEYS = testKeys;

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
  const port = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
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
