import { randomUUID } from 'node:crypto';
import { deleteStreams, fixedClock, PILOT_COOKIE, serveRpc, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, eventually, testBaseConfig, testPilot, TEST_KEYS } from '@crewswap/kit-testing';
import { KnownAirportsRequest, RPC, SUBJECTS, type Pilot } from '@crewswap/proto';
import type { Subscription } from 'nats';
import { createApp, type LinksApp } from '../src/app';
import type { Config } from '../src/config';

/** The IATA codes the stand-in for trips knows unless a test adds more. */
export const KNOWN_CODES = ['JFK', 'LAX', 'SFO', 'SEA', 'BGI', 'LOS', 'DEL', 'ATL'];

export interface TestService extends LinksApp {
  clock: ReturnType<typeof fixedClock>;
  /** What trips answers to the known-airports request; a test may add to it. */
  knownCodes: Set<string>;
  /** Stops (false) or restarts (true) the trips stand-in, to see links when trips is away. */
  setTripsAnswering(answering: boolean): void;
  stop(): Promise<void>;
}

/**
 * The links service on its own database and NATS prefix, with trips' known-airports request
 * answered over the real bus by the same kit serveRpc trips uses (trips' own handler is tested
 * in services/trips/test/rpc.test.ts).
 */
export async function startTestService(): Promise<TestService> {
  const database = await createTestDatabase();
  const config: Config = { ...testBaseConfig(database.url), PORT: 0, AIRPORT_CHECK_TIMEOUT_MS: 500 };
  const clock = fixedClock('2026-11-01T12:00:00Z');
  const service = await createApp(config, { clock });
  const knownCodes = new Set(KNOWN_CODES);
  const { bus, log } = service.runtime;
  const answer = () =>
    serveRpc({
      bus,
      log,
      subject: RPC.knownAirports,
      request: KnownAirportsRequest,
      handle: async ({ codes }) => ({ known: codes.filter((code) => knownCodes.has(code)) }),
    });
  let trips: Subscription | undefined = answer();
  return {
    ...service,
    clock,
    knownCodes,
    setTripsAnswering(answering) {
      trips?.unsubscribe();
      trips = answering ? answer() : undefined;
    },
    async stop() {
      trips?.unsubscribe();
      await deleteStreams(service.runtime.bus);
      await service.close();
      await database.drop();
    },
  };
}

export function pilotCookie(pilotId: string): Record<string, string> {
  return { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) };
}

/** Publishes auth's event the way auth does (through an outbox) and waits until the directory has it. */
export async function registerPilot(service: LinksApp, overrides: Partial<Pilot> = {}): Promise<Pilot> {
  const pilot = testPilot(overrides);
  const { db, outbox } = service.runtime;
  await db.transaction((trx) => outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
  await eventually(async () => (await service.repositories.pilots.findName(pilot.id)) !== undefined, 20_000);
  return pilot;
}

/** A valid link body that a test changes one field of. */
export function linkBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Joe’s Diner',
    category: 'restaurant',
    description: 'Crew discount on breakfast.',
    discountDetails: '15% with staff ID',
    destinations: 'JFK',
    website: 'https://joes.example.com',
    locationName: 'Joe’s Diner, Queens',
    locationCoordinates: '40.6413,-73.7781',
    contactInfo: '+1 555 0100',
    isActive: true,
    ...overrides,
  };
}
