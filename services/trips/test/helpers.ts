import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, PILOT_COOKIE, deleteStreams, fixedClock, signAdminToken, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, eventually, testBaseConfig, testPilot, TEST_KEYS } from '@crewswap/kit-testing';
import { SUBJECTS, type Permission, type Pilot } from '@crewswap/proto';
import { createApp, type AppOptions, type TripsApp } from '../src/app';
import type { Config } from '../src/config';

/** The clock of every test: 1 November 2026, noon in London (the roster fixtures' "today"). */
export const TODAY = '2026-11-01';

export interface TestService extends TripsApp {
  clock: ReturnType<typeof fixedClock>;
  /** Closes the service, its streams and its database. */
  stop(): Promise<void>;
}

export async function startTestService(options: AppOptions & { config?: Partial<Config> } = {}): Promise<TestService> {
  const database = await createTestDatabase();
  const config: Config = {
    ...testBaseConfig(database.url),
    PORT: 0,
    PROFILE_WAIT_MS: 300,
    // Tests read what they just wrote; calendars.test.ts turns the cache on where it is the subject.
    MASTER_CALENDAR_CACHE_MS: 0,
    ...options.config,
  };
  const clock = fixedClock(`${TODAY}T12:00:00Z`);
  const service = await createApp(config, { clock, settings: { get: async () => '4' }, ...options });
  return {
    ...service,
    clock,
    async stop() {
      await deleteStreams(service.runtime.bus);
      await service.close();
      await database.drop();
    },
  };
}

export function makePilot(overrides: Partial<Pilot> = {}): Pilot {
  return testPilot(overrides);
}

/** Publishes auth's event the way auth does (through an outbox) and waits until the directory has it. */
export async function registerPilot(service: TripsApp, pilot: Pilot): Promise<Pilot> {
  const { db, outbox } = service.runtime;
  await db.transaction((trx) => outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
  await eventually(async () => (await service.repositories.pilots.find(pilot.id)) !== undefined, 5000);
  return pilot;
}

export function pilotCookie(pilotId: string): Record<string, string> {
  return { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) };
}

export function adminCookie(permissions: Permission[], isMasterAdmin = false): Record<string, string> {
  return { [ADMIN_COOKIE]: signAdminToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin, permissions }) };
}

/** A valid trip body that a test changes one field of. */
export function tripBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    flightNoStart: 'VS003',
    flightNoEnd: 'VS004',
    route: 'JFK',
    startDate: '2026-11-10',
    endDate: '2026-11-12',
    ...overrides,
  };
}
