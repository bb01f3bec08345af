import { randomUUID } from 'node:crypto';
import { eventually } from '@crewswap/kit-testing';
import { SUBJECTS, type Pilot, type Trip } from '@crewswap/proto';
import { resetPilotDirectory, startPilotDirectory } from '../src/events/pilot-directory';
import { createTripEvents } from '../src/domain/events';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('pilot directory from auth.pilot.* events', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  /** Publishes an event envelope straight to JetStream, as a redelivery or a late copy would arrive. */
  async function publishRaw(subject: string, envelope: object) {
    const { bus } = service.runtime;
    await bus.js.publish(bus.subject(subject), JSON.stringify(envelope));
  }
  const envelope = (type: string, data: object, occurredAt: string) => ({ id: randomUUID(), type, occurredAt, version: 1, data });
  const directoryRow = (id: string) => service.runtime.db('pilots').where({ id }).first();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

  it('a registered pilot can add a trip within moments of registering', async () => {
    const pilot = makePilot({ fleet: 'B787' });
    await service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
    // No waiting for the directory here: the request itself waits for the profile.
    const response = await service.app.inject({ method: 'POST', url: '/api/trips', cookies: pilotCookie(pilot.id), payload: tripBody() });
    expect(response.statusCode).toBe(201);
    expect(response.json().aircraft).toBe('B787');
  });

  it('applies each event once: a redelivered registration changes nothing', async () => {
    const pilot = await registerPilot(service, makePilot({ fleet: 'A330' }));
    const first = await directoryRow(pilot.id);
    const updated = { ...pilot, fleet: 'SFF' as const };
    const update = envelope(SUBJECTS.pilotUpdated, { pilot: updated }, new Date(Date.now() + 1000).toISOString());
    await publishRaw(SUBJECTS.pilotUpdated, update);
    await eventually(async () => (await directoryRow(pilot.id)).fleet === 'SFF');
    // The same event again (a redelivery under a new message id) and an older registration: no change.
    await publishRaw(SUBJECTS.pilotUpdated, update);
    await publishRaw(SUBJECTS.pilotRegistered, envelope(SUBJECTS.pilotRegistered, { pilot }, first.occurred_at.toISOString()));
    await settle();
    const row = await directoryRow(pilot.id);
    expect(row.fleet).toBe('SFF');
    const applied = await service.runtime.db('processed_events').where({ consumer: 'trips_pilot_directory', event_id: update.id });
    expect(applied).toHaveLength(1);
  });

  it('rank, LTC and swap window come from the latest profile', async () => {
    const pilot = await registerPilot(service, makePilot({ rank: 'CP', ltc: false }));
    const cookies = pilotCookie(pilot.id);
    expect((await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody({ training: true }) })).statusCode).toBe(403);
    await service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, SUBJECTS.pilotUpdated, { pilot: { ...pilot, ltc: true } }));
    await eventually(async () => (await service.repositories.pilots.find(pilot.id))?.ltc === true);
    expect((await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody({ training: true }) })).statusCode).toBe(201);
  });

  it("a deleted pilot's trips are removed, each with trips.trip.deleted, and a late profile event does not bring the pilot back", async () => {
    const pilot = await registerPilot(service, makePilot());
    const cookies = pilotCookie(pilot.id);
    const trip = (await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody() })).json() as Trip;
    await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody({ startDate: '2026-11-20', endDate: '2026-11-22' }) });
    const stale = envelope(SUBJECTS.pilotUpdated, { pilot }, new Date(Date.now() - 60_000).toISOString());
    await service.runtime.db.transaction((trx) =>
      service.runtime.outbox.write(trx, SUBJECTS.pilotDeleted, { pilotId: pilot.id, employeeId: pilot.employeeId }),
    );
    await eventually(async () => (await service.repositories.trips.listByPilot(pilot.id)).length === 0);
    const deleted = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripDeleted });
    expect(deleted.filter((row: { envelope: { data: { pilotId: string } } }) => row.envelope.data.pilotId === pilot.id)).toHaveLength(2);
    expect(deleted.some((row: { envelope: { data: { tripId: string } } }) => row.envelope.data.tripId === trip.id)).toBe(true);
    expect(await service.repositories.pilots.find(pilot.id)).toBeUndefined();

    await publishRaw(SUBJECTS.pilotUpdated, stale);
    await settle();
    expect(await service.repositories.pilots.find(pilot.id)).toBeUndefined();
    const response = await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody() });
    expect(response.statusCode).toBe(503);

    // A restored account (a newer registration) is back.
    await service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
    await eventually(async () => (await service.repositories.pilots.find(pilot.id)) !== undefined);
  });

  it('rebuilds from the stream: the directory comes back the same and no trip is touched', async () => {
    const pilots: Pilot[] = [];
    for (const fleet of ['A330', 'SFF'] as const) pilots.push(await registerPilot(service, makePilot({ fleet })));
    const trip = (await service.app.inject({ method: 'POST', url: '/api/trips', cookies: pilotCookie(pilots[0]!.id), payload: tripBody() })).json() as Trip;
    const before = await service.runtime.db('pilots').orderBy('id').select('id', 'fleet', 'deleted');

    // A second directory consumer in this process, as after a restart with an emptied projection.
    const { db, bus, log } = service.runtime;
    await resetPilotDirectory({ db, bus, pilots: service.repositories.pilots });
    expect(await db('pilots').count({ n: '*' }).first()).toEqual({ n: 0 });
    const consumer = await startPilotDirectory({ db, bus, log, pilots: service.repositories.pilots, trips: service.repositories.trips, feeds: service.repositories.feeds, events: createTripEvents(service.runtime.outbox) });
    await eventually(async () => (await db('pilots').count({ n: '*' }).first())?.n === before.length);
    await settle();
    expect(await db('pilots').orderBy('id').select('id', 'fleet', 'deleted')).toEqual(before);
    expect(await service.repositories.trips.findOwn(pilots[0]!.id, trip.id)).toBeDefined();
    await consumer.stop();
  });
});
