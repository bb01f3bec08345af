/**
 * Issue 57: a change the pilot app sends again (queued offline, its first answer lost) lands once.
 * The real trips service behind the real gateway, with the kit's Idempotency-Key handling.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteStreams, fixedClock, IDEMPOTENCY_MISMATCH_MESSAGE, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, eventually, startServices, testBaseConfig, testPilot, TEST_KEYS, uniqueName } from '@crewswap/kit-testing';
import { SUBJECTS, type Trip } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { createApp as createGateway } from '../src/app';
import { configSchema as gatewayConfig } from '../src/config';

const ORIGIN = 'http://localhost:8080';

describe('a change sent again with its Idempotency-Key, through the gateway', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let trips: Awaited<ReturnType<typeof startServices<'trips'>>>[number];
  let gateway: FastifyInstance;
  const pilot = testPilot();
  const cookies = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey!, { sessionId: '7a1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', pilotId: pilot.id }) };
  const call = (method: 'POST' | 'PATCH', url: string, payload: object, key: string) =>
    gateway.inject({ method, url, headers: { origin: ORIGIN, 'idempotency-key': key }, cookies, payload });
  const outboxRows = async () => Number((await trips.runtime.db('outbox').count({ n: '*' }).first())!.n);

  beforeAll(async () => {
    database = await createTestDatabase();
    const started = await startServices(['trips'], testBaseConfig(database.url, uniqueName('idem')), {
      options: { clock: fixedClock('2026-11-01T12:00:00Z'), settings: { get: async () => '4' } },
    });
    trips = started[0]!;
    await trips.app.listen({ port: 0, host: '127.0.0.1' });
    const { db, outbox } = trips.runtime;
    await db.transaction((trx) => outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
    await eventually(async () => (await trips.repositories.pilots.find(pilot.id)) !== undefined, 5000);
    const port = (trips.app.server.address() as { port: number }).port;
    gateway = (await createGateway(gatewayConfig.parse({ LOG_LEVEL: 'silent', TRIPS_URL: `http://127.0.0.1:${port}`, WEB_DIST: mkdtempSync(join(tmpdir(), 'crewswap-dist-')) }))).app;
  });
  afterAll(async () => {
    await gateway?.close();
    if (trips) {
      await deleteStreams(trips.runtime.bus);
      await trips.close();
    }
    await database?.drop();
  });

  it('adds the trip and offers it once, answering the repeat with the first answer', async () => {
    const body = { flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK', startDate: '2026-11-10', endDate: '2026-11-12' };
    const added = await call('POST', '/api/trips', body, 'add-vs003');
    const addedAgain = await call('POST', '/api/trips', body, 'add-vs003');
    expect(added.statusCode).toBe(201);
    expect(addedAgain.statusCode).toBe(201);
    expect(addedAgain.json<Trip>().id).toBe(added.json<Trip>().id);
    expect(addedAgain.headers['idempotent-replayed']).toBe('true');

    const trip = added.json<Trip>();
    const offer = { isSwappable: true, swapDescription: 'Happy to swap for any JFK' };
    const offered = await call('PATCH', `/api/trips/${trip.id}/swappable`, offer, 'offer-vs003');
    expect(offered.statusCode).toBe(200);
    const eventsAfterOffer = await outboxRows();
    const offeredAgain = await call('PATCH', `/api/trips/${trip.id}/swappable`, offer, 'offer-vs003');
    expect(offeredAgain.statusCode).toBe(200);
    expect(offeredAgain.json()).toEqual(offered.json());
    // Nothing was done again: no second event for the offer.
    expect(await outboxRows()).toBe(eventsAfterOffer);
    expect(await trips.runtime.db('trips').where({ pilot_id: pilot.id }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('refuses the same key for a different change with a sentence, changing nothing', async () => {
    const body = { flightNoStart: 'VS009', flightNoEnd: 'VS010', route: 'BOS', startDate: '2026-11-14', endDate: '2026-11-16' };
    expect((await call('POST', '/api/trips', body, 'add-vs009')).statusCode).toBe(201);
    const other = await call('POST', '/api/trips', { ...body, route: 'LAX' }, 'add-vs009');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: IDEMPOTENCY_MISMATCH_MESSAGE });
    expect(await trips.runtime.db('trips').where({ pilot_id: pilot.id, route: 'LAX' }).first()).toBeUndefined();
  });
});
