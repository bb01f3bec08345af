import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { addDays, SUBJECTS, type EventDataMap, type Trip } from '@crewswap/proto';
import { TOMBSTONE_RETENTION_DAYS } from '../src/app';
import { waitUntilCaughtUp } from '../src/events/catch-up';
import { DURABLES } from '../src/events/consumers';
import { rebuildReadModel } from '../src/events/replay';
import { freshDate, startHarness, type Harness } from './helpers';

describe('The swaps read model', () => {
  let h: Harness;
  beforeAll(async () => {
    // Admin answers the settings read at start with a window that no event has announced.
    h = await startHarness({ adminSettings: { swap_search_days: '9', testing_password: 'never-stored' } });
  });
  afterAll(async () => {
    await h.close();
  });

  /** Publishes an event copy straight to JetStream under a new message id, as a redelivery would arrive. */
  async function redeliver<S extends keyof EventDataMap>(subject: S, envelope: { id: string; occurredAt: string; version: number; data: EventDataMap[S] }) {
    const { bus } = h.service.runtime;
    await bus.js.publish(bus.subject(subject), JSON.stringify({ type: subject, ...envelope }), { msgID: randomUUID() });
    const durable = subject.startsWith('auth.') ? DURABLES.pilots : subject.startsWith('trips.') ? DURABLES.trips : DURABLES.settings;
    await waitUntilCaughtUp(bus, subject.startsWith('auth.') ? 'AUTH' : subject.startsWith('trips.') ? 'TRIPS' : 'ADMIN', durable, 10_000);
  }

  const storedTrip = (id: string) => h.service.readModel.findTrip(id);

  it("reads swap_search_days from admin once at start and stores no other setting", async () => {
    expect(await h.service.settingsRead).toBe(true);
    expect(await h.service.readModel.swapSearchDays()).toBe(9);
    expect(await h.db('settings').pluck('key')).toEqual(['swap_search_days']);
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start });
    const other = await h.register();
    const nineDays = await h.addTrip(other, { startDate: addDays(start, 9), endDate: addDays(start, 9), isSwappable: true });
    expect(await h.matchIds(me, mine.id)).toEqual([nineDays.id]);
  });

  it('applies a redelivered event once: the same event again under another message id changes nothing', async () => {
    const start = freshDate();
    const owner = await h.register();
    const other = await h.register();
    await h.addTrip(other, { startDate: start });
    const trip = { ...(await h.addTrip(owner, { startDate: start })), isSwappable: true, swapDescription: 'First' };
    const offered = await h.publishAndWait(SUBJECTS.tripOffered, { trip });
    expect(await h.pushedFor(trip.id)).toHaveLength(1);
    const renamed = await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...trip, swapDescription: 'Second' } });

    await redeliver(SUBJECTS.tripOffered, offered);
    await redeliver(SUBJECTS.tripUpdated, renamed);
    expect((await storedTrip(trip.id))?.swapDescription).toBe('Second');
    expect(await h.pushedFor(trip.id)).toHaveLength(1);
    expect(await h.db('processed_events').where({ event_id: offered.id }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('ignores an older update arriving after a newer one, by version and then by time', async () => {
    const start = freshDate();
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: start });
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...trip, route: 'SEA-LAX' } }, 3);
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...trip, route: 'BOS' } }, 2);
    expect((await storedTrip(trip.id))?.route).toBe('SEA-LAX');

    const newest = await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...trip, route: 'LAS' } }, 3);
    const older = new Date(Date.parse(newest.occurredAt) - 60_000).toISOString();
    await redeliver(SUBJECTS.tripUpdated, { id: randomUUID(), occurredAt: older, version: 3, data: { trip: { ...trip, route: 'MCO' } } });
    expect((await storedTrip(trip.id))?.route).toBe('LAS');

    const pilot = await h.register({ rank: 'CP' });
    const promoted = await h.publishAndWait(SUBJECTS.pilotUpdated, { pilot: { ...pilot, lastName: 'Newer' } });
    await redeliver(SUBJECTS.pilotUpdated, { id: randomUUID(), occurredAt: new Date(Date.parse(promoted.occurredAt) - 1).toISOString(), version: 1, data: { pilot: { ...pilot, lastName: 'Older' } } });
    expect((await h.service.readModel.findPilot(pilot.id))?.contact.lastName).toBe('Newer');
  });

  it('keeps a deleted trip deleted when an older update arrives after the deletion', async () => {
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: freshDate(), isSwappable: true });
    const deleted = await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: trip.id, pilotId: owner.id });
    await redeliver(SUBJECTS.tripUpdated, { id: randomUUID(), occurredAt: new Date(Date.parse(deleted.occurredAt) - 1000).toISOString(), version: 1, data: { trip } });
    expect(await storedTrip(trip.id)).toBeUndefined();
    expect((await h.matches(owner, trip.id)).statusCode).toBe(404);
  });

  it("keeps a deleted pilot's profile for the contact on their offers, and takes them back when restored", async () => {
    const pilot = await h.register();
    const deleted = await h.publishAndWait(SUBJECTS.pilotDeleted, { pilotId: pilot.id, employeeId: pilot.employeeId });
    const record = await h.service.readModel.findPilot(pilot.id);
    expect(record).toMatchObject({ deleted: true, contact: { phone: pilot.phone } });
    expect(deleted.version).toBe(1);
    await h.publishAndWait(SUBJECTS.pilotRegistered, { pilot });
    expect(await h.service.readModel.findPilot(pilot.id)).toMatchObject({ deleted: false });
  });

  it('rebuilds from the streams to the same state, reports counts, and alerts nobody again', async () => {
    // Some history worth replaying: a deleted pilot, a deleted trip, an out-of-order update.
    const start = freshDate();
    const gone = await h.register();
    await h.addTrip(gone, { startDate: start, isSwappable: true });
    await h.publishAndWait(SUBJECTS.pilotDeleted, { pilotId: gone.id, employeeId: gone.employeeId });
    const owner = await h.register();
    const erased = await h.addTrip(owner, { startDate: addDays(start, 1) });
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: erased.id, pilotId: owner.id });
    const kept: Trip = await h.addTrip(owner, { startDate: addDays(start, 2), endDate: addDays(start, 3) });
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...kept, route: 'SFO' } }, 2);
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...kept, route: 'OLD' } }, 1);
    await h.publishAndWait(SUBJECTS.settingsChanged, { key: 'swap_search_days', value: '9' });

    const snapshot = async () => ({
      pilots: await h.db('pilots').orderBy('id'),
      trips: await h.db('trips').orderBy('id'),
      settings: await h.db('settings').orderBy('key'),
      pushes: await h.db('outbox').count({ n: '*' }).first(),
    });
    const before = await snapshot();
    const report = await rebuildReadModel({ ...h.service.runtime, readModel: h.service.readModel, clock: h.clock, settingsTimeoutMs: 500 });
    expect(await snapshot()).toEqual(before);
    expect(report.readModel).toEqual({
      pilots: before.pilots.length,
      trips: before.trips.filter((row) => !row.deleted).length,
      offers: before.trips.filter((row) => !row.deleted && row.is_swappable).length,
      tombstones: before.trips.filter((row) => row.deleted).length,
    });
    expect(report.events.trips).toBeGreaterThan(before.trips.length);
    expect(report).toMatchObject({ swapSearchDays: 9, settingsFromAdmin: true, events: { unreadable: 0 } });

    // The command line does the same against the same database and streams.
    const { stdout } = await promisify(execFile)(join(__dirname, '../../../node_modules/.bin/tsx'), ['src/rebuild.ts'], {
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        DATABASE_URL: h.config.DATABASE_URL,
        NATS_PREFIX: h.config.NATS_PREFIX,
        LOG_LEVEL: 'silent',
        JWT_PUBLIC_KEY: TEST_KEYS.publicKey,
        JWT_PRIVATE_KEY: TEST_KEYS.privateKey,
        SETTINGS_RPC_TIMEOUT_MS: '500',
      },
    });
    expect(JSON.parse(stdout)).toMatchObject({ readModel: report.readModel, events: report.events });
    const after = await snapshot();
    expect({ ...after, settings: after.settings.map((row) => ({ ...row, event_at: undefined })) }).toEqual({
      ...before,
      settings: before.settings.map((row) => ({ ...row, event_at: undefined })),
    });
  }, 60_000);

  it('exports its lag behind trips on /metrics: 0 when caught up, the age of the oldest unapplied event otherwise', async () => {
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: freshDate() });
    const scrape = async () => {
      const text = (await h.service.app.inject('/metrics')).body;
      const read = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
      return { lag: read('swaps_read_model_lag_seconds'), pending: read('swaps_trips_consumer_pending_messages') };
    };
    expect(await scrape()).toEqual({ lag: 0, pending: 0 });

    const hold = await h.db.transaction();
    await hold('trips').where({ id: trip.id }).forUpdate().first();
    const event = await h.publish(SUBJECTS.tripUpdated, { trip: { ...trip, route: 'BOS' } });
    await eventually(() => h.publisher.db('outbox').where({ id: event.id }).whereNotNull('published_at').first());
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const behind = await scrape();
    expect(behind.pending).toBeGreaterThanOrEqual(1);
    expect(behind.lag).toBeGreaterThanOrEqual(1);
    await hold.commit();
    await h.applied(event);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await scrape()).toEqual({ lag: 0, pending: 0 });
  });

  it('prunes trip tombstones 30 days after the deletion, not before', async () => {
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: freshDate() });
    const deleted = await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: trip.id, pilotId: owner.id });
    const tombstone = () => h.db('trips').where({ id: trip.id, deleted: true }).first();
    const deletedAt = Date.parse(deleted.occurredAt);
    await h.service.readModel.pruneTombstones(new Date(deletedAt - 1000));
    expect(await tombstone()).toBeDefined();
    await h.service.readModel.pruneTombstones(new Date(deletedAt + TOMBSTONE_RETENTION_DAYS * 24 * 60 * 60 * 1000));
    expect(await tombstone()).toBeUndefined();
  });
});
