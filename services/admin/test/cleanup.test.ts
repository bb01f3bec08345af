import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, fixedClock, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, eventually, startService, TEST_KEYS, testBaseConfig, testPilot, type StartedService } from '@crewswap/kit-testing';
import { CleanupRun, PERMISSIONS, SUBJECTS } from '@crewswap/proto';
import { lastSlot, nextRun } from '../src/domain/cleanup';
import { adminWith, login, MASTER, startAdmin, stopAdmin, type TestDatabase } from './helpers';

describe('data cleanup', () => {
  let database: TestDatabase;
  let admin: Awaited<ReturnType<typeof startAdmin>>;
  // The real trips and notifications services on the same bus do the deleting, as in a deployment.
  let trips: StartedService<'trips'> | undefined;
  let notifications: StartedService<'notifications'> | undefined;
  let master: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await startAdmin(database);
    master = { [ADMIN_COOKIE]: await login(admin, MASTER.email, MASTER.password) };
    const base = testBaseConfig(database.url, admin.prefix);
    const started = await startService('trips', base, { options: { clock: fixedClock('2026-11-01T12:00:00Z') } });
    trips = started;
    // trips' clock says 2026-11-01: with 7 days' retention, trips that ended before 2026-10-25 go.
    // Its pilot is registered as auth registers one: an event through the outbox.
    const pilot = testPilot();
    await started.runtime.db.transaction((trx) => started.runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
    await eventually(() => started.repositories.pilots.find(pilot.id), 10_000);
    for (const [start, end] of [
      ['2026-09-01', '2026-09-03'],
      ['2026-10-20', '2026-10-22'],
      ['2026-10-30', '2026-11-02'],
    ]) {
      await trips.runtime.db('trips').insert({ pilot_id: pilot.id, flight_no_start: 'VS003', flight_no_end: 'VS004', route: 'JFK', start_date: start, end_date: end });
    }
    notifications = await startService('notifications', base, { options: { clock: fixedClock('2026-11-23T10:15:00Z') } });
    // With 7 days' retention on 23 November, notifications logged before the 16th go.
    for (const [at, key] of [
      ['2026-11-10T09:00:00Z', 'old'],
      ['2026-11-20T09:00:00Z', 'recent'],
    ]) {
      await notifications!.runtime.db('notification_log').insert({
        id: randomUUID(),
        command_id: randomUUID(),
        pilot_id: pilot.id,
        kind: 'swap_offer',
        dedupe_key: key,
        title: 'New swap offer',
        body: 'VS003',
        url: '/',
        status: 'sent',
        created_at: at,
        updated_at: at,
      });
    }
  });
  afterAll(async () => {
    await trips?.close();
    await notifications?.close();
    await stopAdmin(admin, { deleteStreams: false });
    await database.drop();
  });

  const call = (method: 'GET' | 'POST', url: string, cookies: Record<string, string>, payload?: unknown) =>
    admin.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), cookies });

  it('needs manage_system for every cleanup route: 401 without a session or with a pilot session, 403 without it', async () => {
    const pilot = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() }) };
    const without = { [ADMIN_COOKIE]: await adminWith(admin, PERMISSIONS.filter((p) => p !== 'manage_system')) };
    const withIt = { [ADMIN_COOKIE]: await adminWith(admin, ['manage_system']) };
    const routes: ['GET' | 'POST', string, unknown][] = [
      ['GET', '/api/admin/cleanup/config', undefined],
      ['POST', '/api/admin/cleanup/config', { frequency: 'daily', retentionDays: 7 }],
      ['GET', '/api/admin/cleanup/history', undefined],
      ['GET', '/api/admin/cleanup/preview?days=30', undefined],
      ['POST', '/api/admin/cleanup/run', { retentionDays: 30 }],
    ];
    for (const [method, url, payload] of routes) {
      expect([url, (await call(method, url, {}, payload)).statusCode]).toEqual([url, 401]);
      expect([url, (await call(method, url, pilot, payload)).statusCode]).toEqual([url, 401]);
      expect([url, (await call(method, url, without, payload)).statusCode]).toEqual([url, 403]);
      expect([url, (await call(method, url, withIt, payload)).statusCode]).toEqual([url, 200]);
      expect([url, (await call(method, url, master, payload)).statusCode]).toEqual([url, 200]);
    }
  });

  it('takes the retention as digits too, as a form or a query string sends it', async () => {
    expect((await call('POST', '/api/admin/cleanup/config', master, { frequency: 'daily', retentionDays: '9' })).json()).toMatchObject({ retentionDays: 9 });
  });

  it('keeps the configuration (daily and 7 days by default) and answers the next 01:00 UTC run', async () => {
    expect((await call('POST', '/api/admin/cleanup/config', master, { frequency: 'daily', retentionDays: 7 })).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/cleanup/config', master)).json()).toEqual({ frequency: 'daily', retentionDays: 7, nextScheduledRun: '2026-11-24T01:00:00.000Z' });
    const weekly = await call('POST', '/api/admin/cleanup/config', master, { frequency: 'weekly', retentionDays: 14 });
    expect(weekly.json()).toEqual({ frequency: 'weekly', retentionDays: 14, nextScheduledRun: '2026-11-29T01:00:00.000Z' });
    const stopped = await call('POST', '/api/admin/cleanup/config', master, { frequency: 'stopped', retentionDays: 14 });
    expect(stopped.json()).toEqual({ frequency: 'stopped', retentionDays: 14, nextScheduledRun: null });
  });

  it.each<[unknown, string]>([
    [{ frequency: 'hourly', retentionDays: 7 }, 'Frequency must be stopped, daily, weekly or monthly'],
    [{ frequency: 'daily', retentionDays: 0 }, 'Retention must be at least 1 day'],
    [{ frequency: 'daily', retentionDays: 31 }, 'Retention cannot exceed 30 days'],
    [{ frequency: 'daily', retentionDays: 2.5 }, 'Retention must be a whole number of days'],
    // Not a number of days at all: never read as one (true was taken as 1 day).
    [{ frequency: 'daily', retentionDays: true }, 'Retention must be a number of days'],
    [{ frequency: 'daily', retentionDays: false }, 'Retention must be a number of days'],
    [{ frequency: 'daily', retentionDays: null }, 'Retention must be a number of days'],
    [{ frequency: 'daily', retentionDays: [7] }, 'Retention must be a number of days'],
    [{ frequency: 'daily', retentionDays: '' }, 'Retention must be a number of days'],
  ])('refuses the configuration %j with "%s" and changes nothing', async (payload, message) => {
    const before = (await call('GET', '/api/admin/cleanup/config', master)).json();
    const response = await call('POST', '/api/admin/cleanup/config', master, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
    expect((await call('GET', '/api/admin/cleanup/config', master)).json()).toEqual(before);
  });

  it('schedules at 01:00 UTC: daily the next day, weekly on Sunday, monthly on the 1st', () => {
    const now = new Date('2026-11-23T10:15:00Z');
    expect(nextRun('daily', new Date('2026-11-23T00:30:00Z'))?.toISOString()).toBe('2026-11-23T01:00:00.000Z');
    expect(nextRun('daily', now)?.toISOString()).toBe('2026-11-24T01:00:00.000Z');
    expect(nextRun('weekly', now)?.toISOString()).toBe('2026-11-29T01:00:00.000Z');
    expect(nextRun('monthly', now)?.toISOString()).toBe('2026-12-01T01:00:00.000Z');
    expect(nextRun('monthly', new Date('2026-12-01T00:59:00Z'))?.toISOString()).toBe('2026-12-01T01:00:00.000Z');
    expect(nextRun('stopped', now)).toBeNull();
  });

  it('previews, then runs a cleanup through trips and notifications, and records it in the history', async () => {
    // The matrix's 30-day run took the September trip; the one that ended on 22 October is left.
    expect((await call('GET', '/api/admin/cleanup/preview?days=7', master)).json()).toEqual({ tripsToDelete: 1 });
    expect((await call('GET', '/api/admin/cleanup/preview?days=0', master)).statusCode).toBe(400);
    const run = await call('POST', '/api/admin/cleanup/run', master, { retentionDays: 7 });
    expect(run.json()).toEqual({ tripsDeleted: 1, notificationsDeleted: 1 });
    expect(await notifications!.runtime.db('notification_log').pluck('dedupe_key')).toEqual(['recent']);
    expect((await call('GET', '/api/admin/cleanup/preview?days=7', master)).json()).toEqual({ tripsToDelete: 0 });
    const [latest] = (await call('GET', '/api/admin/cleanup/history', master)).json() as CleanupRun[];
    expect(CleanupRun.parse(latest)).toMatchObject({ runType: 'manual', status: 'success', retentionDays: 7, tripsDeleted: 1, notificationsDeleted: 1, cutoffDate: '2026-11-16', errorMessage: null });
  });

  it('fires a scheduled cleanup once with two replicas, and not for a slot from before the configuration was saved', async () => {
    const replica = await startAdmin(database, { prefix: admin.prefix });
    try {
      // Saved at 10:15 on the 23rd: the 01:00 slot of that day is already past and never fires.
      expect((await call('POST', '/api/admin/cleanup/config', master, { frequency: 'daily', retentionDays: 3 })).statusCode).toBe(200);
      const scheduledRuns = async () => (await admin.runtime.db('cleanup_runs').where({ run_type: 'scheduled_daily' })).length;
      expect(await Promise.all([admin.useCases.runScheduledCleanup.execute(), replica.useCases.runScheduledCleanup.execute()])).toEqual([false, false]);
      expect(await scheduledRuns()).toBe(0);

      admin.clock.set('2026-11-24T01:00:30Z');
      replica.clock.set('2026-11-24T01:00:45Z');
      const ran = await Promise.all([admin.useCases.runScheduledCleanup.execute(), replica.useCases.runScheduledCleanup.execute(), admin.useCases.runScheduledCleanup.execute()]);
      expect(ran.filter(Boolean)).toHaveLength(1);
      expect(await scheduledRuns()).toBe(1);
      const [latest] = (await call('GET', '/api/admin/cleanup/history', master)).json() as CleanupRun[];
      expect(latest).toMatchObject({ runType: 'scheduled_daily', status: 'success', retentionDays: 3 });
      // Either replica may win the claim; the run is dated by the clock of the one that ran it.
      expect(['2026-11-24T01:00:30.000Z', '2026-11-24T01:00:45.000Z']).toContain(latest!.runDate);
      expect(await replica.useCases.runScheduledCleanup.execute()).toBe(false);
    } finally {
      await stopAdmin(replica, { deleteStreams: false });
      admin.clock.set('2026-11-23T10:15:00Z');
    }
  });

  it('finds the latest due 01:00 UTC slot of each frequency', () => {
    const now = new Date('2026-11-23T10:15:00Z');
    expect(lastSlot('daily', now)?.toISOString()).toBe('2026-11-23T01:00:00.000Z');
    expect(lastSlot('daily', new Date('2026-11-23T00:59:00Z'))?.toISOString()).toBe('2026-11-22T01:00:00.000Z');
    expect(lastSlot('weekly', now)?.toISOString()).toBe('2026-11-22T01:00:00.000Z');
    expect(lastSlot('monthly', now)?.toISOString()).toBe('2026-11-01T01:00:00.000Z');
    expect(lastSlot('monthly', new Date('2026-12-01T00:30:00Z'))?.toISOString()).toBe('2026-11-01T01:00:00.000Z');
    expect(lastSlot('stopped', now)).toBeNull();
  });

  it('records a partial run when trips deleted but notifications cannot be reached, and answers 503', async () => {
    await notifications!.close();
    notifications = undefined;
    const run = await call('POST', '/api/admin/cleanup/run', master, { retentionDays: 4 });
    expect(run.statusCode).toBe(503);
    const partial = ((await call('GET', '/api/admin/cleanup/history', master)).json() as CleanupRun[]).find((r) => r.retentionDays === 4);
    expect(partial).toMatchObject({ status: 'partial', notificationsDeleted: 0, errorMessage: 'The notifications service is not available right now. Please try again shortly.' });
  });

  it('records a failed run when trips cannot be reached, and answers 503', async () => {
    await trips!.close();
    trips = undefined;
    const run = await call('POST', '/api/admin/cleanup/run', master, { retentionDays: 5 });
    expect(run.statusCode).toBe(503);
    // The history is newest run date first; the scheduled run above is dated the next day.
    const failed = ((await call('GET', '/api/admin/cleanup/history', master)).json() as CleanupRun[]).find((r) => r.retentionDays === 5);
    expect(failed).toMatchObject({ status: 'failed', retentionDays: 5, tripsDeleted: 0, errorMessage: 'The trips service is not available right now. Please try again shortly.' });
  });
});
