import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, PILOT_COOKIE, deleteStreams, fixedClock, signAdminToken, signPilotToken, type Logger } from '@crewswap/kit';
import { createTestDatabase, eventually, startService, testBaseConfig, testPilot, TEST_KEYS, type StartedService } from '@crewswap/kit-testing';
import { SUBJECTS, type Pilot } from '@crewswap/proto';
import { createApp, type AppOptions, type RosterIngestApp } from '../src/app';
import type { Config } from '../src/config';
import type { DNSResolver } from '../src/mail/authenticate';
import { FIXTURE_TODAY } from './fixtures';

export const UPLOAD_EMAIL = 'roster-upload@example-airline.test';

/**
 * DNS of the test's own for SPF and DKIM: TXT records by name; any other name does not exist.
 * By default the airline's domain lets 127.0.0.1 (the tests' mail client) send for it.
 */
export function testDns(txt: Record<string, string> = { 'example-airline.test': 'v=spf1 ip4:127.0.0.1 -all' }): DNSResolver {
  return async (name, type) => {
    const record = txt[name.toLowerCase().replace(/\.$/, '')];
    if (type === 'TXT' && record) return [[record]];
    throw Object.assign(new Error(`query${type} ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
}

type TripsApp = StartedService<'trips'>;

export interface TestStack {
  roster: RosterIngestApp;
  trips: TripsApp;
  clock: ReturnType<typeof fixedClock>;
  config: Config;
  databaseUrl: string;
  startTrips(): Promise<TripsApp>;
  stop(): Promise<void>;
}

/** `tripsDatabaseUrl`: trips on a database of its own (a Postgres the test stops), roster-ingest on the shared one. */
/** `tripsLog`: trips' logger (by default its own, as the config says). */
export async function startTestStack(options: AppOptions & { config?: Partial<Config>; trips?: boolean; tripsDatabaseUrl?: string; tripsLog?: Logger } = {}): Promise<TestStack> {
  const database = await createTestDatabase();
  const base = testBaseConfig(database.url);
  const clock = fixedClock(FIXTURE_TODAY);
  const settings = { get: async (key: string) => (key === 'upload_email' ? UPLOAD_EMAIL : '4') };
  // The real trips service answers the import call: roster-ingest is tested against it, not a stand-in.
  const tripsBase = options.tripsDatabaseUrl ? { ...base, DATABASE_URL: options.tripsDatabaseUrl } : base;
  const startTrips = () => startService('trips', tripsBase, { env: { PROFILE_WAIT_MS: '300' }, options: { clock, settings, keys: TEST_KEYS, log: options.tripsLog } });
  const trips = await startTrips();
  const config: Config = {
    ...base,
    PORT: 0,
    PRODUCT_NAME: 'CrewSwap',
    SMTP_INGEST_PORT: 0,
    SMTP_INGEST_HOST: '127.0.0.1',
    SMTP_INGEST_ENABLED: true,
    MAIL_WORKER_ENABLED: true,
    MAIL_ACK_WAIT_MS: 2000,
    MAIL_WORKER_CONCURRENCY: 4,
    ROSTER_UPLOAD_EMAIL: 'fallback-upload@crewswap.local',
    SMTP_REQUIRE_TLS: false,
    SMTP_STARTTLS: true,
    SMTP_MAX_CLIENTS: 50,
    SMTP_BUFFER_BYTES: 16 * 1024 * 1024,
    PARSE_WORKERS: 2,
    PARSE_TIMEOUT_MS: 20_000,
    SMTP_MAX_MESSAGE_BYTES: 15 * 1024 * 1024,
    ROSTER_FETCH_INTERVAL_MINUTES: 60,
    ROSTER_FETCH_ALLOWED_PRIVATE_HOSTS: [],
    ROSTER_FETCH_TIMEOUT_MS: 10_000,
    ROSTER_FETCH_TICK_MS: 30_000,
    ROSTER_FETCH_ENABLED: false,
    ...options.config,
  };
  const { config: _config, trips: _trips, tripsDatabaseUrl: _tripsDatabase, tripsLog: _tripsLog, ...appOptions } = options;
  const roster = await createApp(config, { clock, settings, keys: TEST_KEYS, dnsResolver: testDns(), ...appOptions });
  const stack: TestStack = {
    roster,
    trips,
    clock,
    config,
    databaseUrl: database.url,
    startTrips,
    async stop() {
      await deleteStreams(roster.runtime.bus);
      await roster.close();
      await stack.trips.close().catch(() => undefined);
      await database.drop();
    },
  };
  return stack;
}

/** Publishes auth's registration the way auth does and waits until both projections hold it. */
export async function registerPilot(stack: TestStack, overrides: Partial<Pilot> = {}): Promise<Pilot> {
  const pilot = testPilot(overrides);
  const { db, outbox } = stack.trips.runtime;
  await db.transaction((trx) => outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
  await eventually(async () => (await stack.trips.repositories.pilots.find(pilot.id)) !== undefined && (await stack.roster.repositories.pilots.find(pilot.id)) !== undefined, 10_000);
  return pilot;
}

export function pilotCookie(pilotId: string): Record<string, string> {
  return { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) };
}

/** The pilot's private upload address, as the upload dialog shows it. */
export async function privateUploadAddress(stack: TestStack, pilotId: string): Promise<string> {
  const response = await stack.roster.app.inject({ method: 'GET', url: '/api/roster/upload-address', cookies: pilotCookie(pilotId) });
  return (response.json() as { address: string }).address;
}

export function adminCookie(): Record<string, string> {
  return { [ADMIN_COOKIE]: signAdminToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin: false, permissions: [] }) };
}

/** A multipart body with one file part, as a browser's FormData sends it. */
export function multipart(fileName: string, content: Buffer | string, field = 'roster', type = 'text/calendar'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----crewswap${randomUUID().replace(/-/g, '')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, Buffer.isBuffer(content) ? content : Buffer.from(content), tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
