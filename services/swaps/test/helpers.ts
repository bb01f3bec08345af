import { randomUUID } from 'node:crypto';
import { deleteStreams, fixedClock, PILOT_COOKIE, serveOutboxPending, serveRpc, signPilotToken, startRuntime, type Runtime } from '@crewswap/kit';
import { createTestDatabase, eventually, TEST_KEYS, testBaseConfig, testPilot, testTrip, uniqueName } from '@crewswap/kit-testing';
import { addDays, RPC, SUBJECTS, type EventDataMap, type EventEnvelope, type Pilot, type Trip } from '@crewswap/proto';
import { z } from 'zod';
import { createApp, type SwapsService } from '../src/app';
import { OFFER_VIEWS_DURABLE } from '../src/events/offer-views';
import type { Config } from '../src/config';

export const TODAY = '2026-11-01';

/**
 * What a Find swaps query carries beyond asker, trip and window, for tests that call the index and
 * the query directly: no other trips, the default setting, the clock's Urgent dates, the whole list.
 */
export const QUERY_DEFAULTS = { askerOtherTrips: [], settingDays: 4, urgent: { from: TODAY, to: addDays(TODAY, 2) }, page: null };

/**
 * One swaps service on its own database and NATS prefix, plus a publisher runtime that writes the
 * real auth, trips and admin events through a kit outbox, as those services do.
 */
export async function startHarness(options: { adminSettings?: Record<string, string>; tripsCatchUpMs?: number } = {}) {
  const database = await createTestDatabase();
  const config: Config = { ...testBaseConfig(database.url, uniqueName('t')), PORT: 0, SETTINGS_RPC_TIMEOUT_MS: 500, TRIPS_CATCH_UP_MS: options.tripsCatchUpMs ?? 1000, OFFER_ALERT_MAX_AGE_MINUTES: 1440, ROSTER_CACHE_PILOTS: 4000, APP_ORIGIN: 'http://localhost:8080', PRODUCT_NAME: 'CrewSwap' };
  const publisher: Runtime = await startRuntime({ name: 'test-publisher', schema: 'test_publisher', migrations: {}, config });
  // The publisher's outbox holds what auth's and trips' would: it answers for them when asked what they still hold.
  const outboxes = ['auth', 'trips'].map((service) => serveOutboxPending({ bus: publisher.bus, db: publisher.db, log: publisher.log, service }));
  publisher.onClose(() => outboxes.forEach((served) => served.unsubscribe()));
  const adminRpc = options.adminSettings
    ? serveRpc({ bus: publisher.bus, log: publisher.log, subject: RPC.getSettings, request: z.object({}), handle: async () => options.adminSettings ?? {} })
    : undefined;
  const clock = fixedClock(`${TODAY}T12:00:00Z`);
  const service: SwapsService = await createApp(config, { clock });
  const { db } = service.runtime;

  async function publish<S extends keyof EventDataMap>(subject: S, data: EventDataMap[S], version?: number): Promise<EventEnvelope<EventDataMap[S]>> {
    return publisher.db.transaction((trx) => publisher.outbox.write(trx, subject, data, version));
  }

  /** Waits until the swaps consumers have taken the event (applied, or found older and ignored). */
  async function applied(event: { id: string }): Promise<void> {
    // The read model's consumers, not the Find swaps viewers' one (offer-views), which takes trip events apart.
    await eventually(() => db('processed_events').where({ event_id: event.id }).whereNot({ consumer: OFFER_VIEWS_DURABLE }).first(), 10_000);
    // Find swaps answers from the offer index and the rosters held, which take the change a moment after the commit.
    await Promise.all([service.offers.catchUp(), service.rosters.catchUp()]);
  }

  async function publishAndWait<S extends keyof EventDataMap>(subject: S, data: EventDataMap[S], version?: number) {
    const event = await publish(subject, data, version);
    await applied(event);
    return event;
  }

  async function register(overrides: Partial<Pilot> = {}): Promise<Pilot> {
    const pilot = makePilot(overrides);
    await publishAndWait(SUBJECTS.pilotRegistered, { pilot });
    return pilot;
  }

  async function addTrip(pilot: Pilot, overrides: Partial<Trip> = {}): Promise<Trip> {
    const trip = makeTrip(pilot, overrides);
    await publishAndWait(trip.isSwappable ? SUBJECTS.tripOffered : SUBJECTS.tripCreated, { trip });
    return trip;
  }

  function cookies(pilot: { id: string }) {
    return { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: pilot.id }) };
  }

  async function matches(pilot: { id: string }, tripId: string, query = '') {
    return service.app.inject({ method: 'GET', url: `/api/trips/${tripId}/matches${query}`, cookies: cookies(pilot) });
  }

  /** Ids of the offers a pilot finds for a trip (the answer must be 200). */
  async function matchIds(pilot: { id: string }, tripId: string, query = ''): Promise<string[]> {
    const response = await matches(pilot, tripId, query);
    if (response.statusCode !== 200) throw new Error(`matches answered ${response.statusCode}: ${response.body}`);
    return (response.json() as { trip: { id: string } }[]).map((match) => match.trip.id);
  }

  async function pushAlert(pilot: { id: string }, tripId: string) {
    return service.app.inject({ method: 'POST', url: `/api/trips/${tripId}/send-notifications`, cookies: cookies(pilot) });
  }

  /** The push commands swaps has written for one offer, recipient ids sorted. */
  async function pushedFor(tripId: string): Promise<EventDataMap['notifications.cmd.push'][]> {
    const rows: { envelope: { data: EventDataMap['notifications.cmd.push'] } }[] = await db('outbox')
      .where({ subject: SUBJECTS.sendPush })
      .whereRaw(`envelope->'data'->>'dedupeKey' LIKE ?`, [`swap_offer:${tripId}:%`])
      .orderBy('seq');
    return rows.map((row) => row.envelope.data);
  }

  return {
    config,
    service,
    publisher,
    clock,
    db,
    publish,
    applied,
    publishAndWait,
    register,
    addTrip,
    cookies,
    matches,
    matchIds,
    pushAlert,
    pushedFor,
    async close() {
      adminRpc?.unsubscribe();
      await deleteStreams(service.runtime.bus);
      await service.close();
      await publisher.close();
      await database.drop();
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startHarness>>;

let employeeSeq = 100000;

export function makePilot(overrides: Partial<Pilot> = {}): Pilot {
  employeeSeq += 1;
  return testPilot({
    employeeId: String(employeeSeq),
    firstName: 'Pat',
    lastName: `Pilot${employeeSeq}`,
    email: `pilot${employeeSeq}@fly.virgin.com`,
    phone: `+4477009${employeeSeq}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });
}

export function makeTrip(pilot: Pilot, overrides: Partial<Trip> = {}): Trip {
  const startDate = overrides.startDate ?? '2026-12-01';
  const aircraft = overrides.aircraft === undefined ? (pilot.fleet === 'SFF' ? 'A350' : pilot.fleet) : overrides.aircraft;
  const stamp = '2026-10-01T00:00:00.000Z';
  return testTrip({ pilotId: pilot.id, flightNoStart: 'VS001', flightNoEnd: 'VS002', aircraft, startDate, endDate: addDays(startDate, 3), createdAt: stamp, updatedAt: stamp, ...overrides });
}

/**
 * Start dates far apart, one per test, so each test's windows see only its own trips: a test's
 * trips lie within -7..+13 days of its date and no test's window reaches further than 10 days,
 * so 25 days apart is enough.
 */
export function dateSlots(first: string): () => string {
  let slot = 0;
  return () => addDays(first, 25 * slot++);
}

/** Future start dates (an offer that has started alerts nobody). */
export const freshDate = dateSlots('2026-11-06');
