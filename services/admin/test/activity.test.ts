import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, eventually, TEST_KEYS, testPilot, testTrip } from '@crewswap/kit-testing';
import { AdminActivityEntry, PERMISSIONS, SUBJECTS } from '@crewswap/proto';
import { adminWith, login, MASTER, startAdmin, stopAdmin, type TestDatabase } from './helpers';

describe('admin sessions end when idle; the activity log says who did what, when', () => {
  let database: TestDatabase;
  let admin: Awaited<ReturnType<typeof startAdmin>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await startAdmin(database);
  });
  afterAll(async () => {
    await stopAdmin(admin);
    await database.drop();
  });

  const current = (cookie: string) => admin.app.inject({ method: 'GET', url: '/api/admin/current', cookies: { [ADMIN_COOKIE]: cookie } });
  const activityOf = (sessionCookie: string) => {
    const sid = (JSON.parse(Buffer.from(sessionCookie.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    return async () => (await admin.runtime.db('admin_sessions').where({ id: sid }).first('last_activity_at')).last_activity_at as Date;
  };

  it('ends admin sessions after session_timeout_minutes without use, and keeps those in use; a changed timeout applies from then on', async () => {
    admin.clock.set('2026-11-23T10:15:00Z');
    const busy = await adminWith(admin, ['manage_pilots']);
    const idle = await adminWith(admin, ['manage_pilots']);

    // 25 minutes on, one of them is used: every service's guard reports it, admin records it.
    admin.clock.set('2026-11-23T10:40:00Z');
    expect((await current(busy)).statusCode).toBe(200);
    await eventually(async () => (await activityOf(busy)()).toISOString() === '2026-11-23T10:40:00.000Z');

    // 35 minutes after login: the idle one is past the default 30, the busy one 10 minutes idle.
    admin.clock.set('2026-11-23T10:50:00Z');
    expect(await admin.useCases.endIdleAdminSessions.execute()).toBeGreaterThanOrEqual(1);
    expect((await current(idle)).statusCode).toBe(401);
    expect((await current(busy)).statusCode).toBe(200);

    // A longer timeout applies to the next sweep: 55 minutes idle is within 60.
    const master = await login(admin, MASTER.email, MASTER.password);
    const set = await admin.app.inject({ method: 'PUT', url: '/api/admin/settings/session_timeout_minutes', payload: { value: '60' }, cookies: { [ADMIN_COOKIE]: master } });
    expect(set.statusCode).toBe(200);
    admin.clock.set('2026-11-23T11:35:00Z');
    await admin.useCases.endIdleAdminSessions.execute();
    expect((await current(busy)).statusCode).toBe(200);
    admin.clock.set('2026-11-23T11:41:00Z');
    await admin.useCases.endIdleAdminSessions.execute();
    expect((await current(busy)).statusCode).toBe(401);
  });

  it('records logins, failed logins, logouts, timeouts and changes, and only a master admin reads them', async () => {
    admin.clock.set('2026-11-23T12:00:00Z');
    const master = await login(admin, MASTER.email, MASTER.password);
    await admin.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: MASTER.email, password: 'wrong-password' } });
    const changed = await admin.app.inject({ method: 'PUT', url: '/api/admin/settings/swap_search_days', payload: { value: '6' }, cookies: { [ADMIN_COOKIE]: master } });
    expect(changed.statusCode).toBe(200);
    // A refused change is not activity.
    const refused = await admin.app.inject({ method: 'PUT', url: '/api/admin/settings/swap_search_days', payload: { value: '99' }, cookies: { [ADMIN_COOKIE]: master } });
    expect(refused.statusCode).toBe(400);
    const other = await adminWith(admin, ['manage_admins']);
    await admin.app.inject({ method: 'POST', url: '/api/admin/logout', cookies: { [ADMIN_COOKIE]: other } });

    const response = await admin.app.inject({ method: 'GET', url: '/api/admin/activity-log', cookies: { [ADMIN_COOKIE]: master } });
    expect(response.statusCode).toBe(200);
    const entries = AdminActivityEntry.array().parse(response.json());
    const summary = entries.map((entry) => [entry.adminEmail, entry.action, entry.detail]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [MASTER.email, 'login', null],
        [MASTER.email, 'login_failed', null],
        [MASTER.email, 'PUT /api/admin/settings/:key', 'key=swap_search_days'],
        [expect.stringContaining('@crewswap.test'), 'logout', null],
        [expect.stringContaining('@crewswap.test'), 'session_timeout', 'idle for 30 minutes'],
      ]),
    );
    expect(summary.filter(([, action, detail]) => action === 'PUT /api/admin/settings/:key' && detail === 'key=swap_search_days')).toHaveLength(1);
    // Newest first.
    expect(entries.map((entry) => entry.at)).toEqual([...entries.map((entry) => entry.at)].sort().reverse());

    const pilot = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() }) };
    const everyPermission = await adminWith(admin, [...PERMISSIONS]);
    expect((await admin.app.inject({ method: 'GET', url: '/api/admin/activity-log' })).statusCode).toBe(401);
    expect((await admin.app.inject({ method: 'GET', url: '/api/admin/activity-log', cookies: pilot })).statusCode).toBe(401);
    expect((await admin.app.inject({ method: 'GET', url: '/api/admin/activity-log', cookies: { [ADMIN_COOKIE]: everyPermission } })).statusCode).toBe(403);
  });
  it("the crewing desk's decisions are in the log: who approved or refused, when, and what moved; a pilot's old answer is not an admin's", async () => {
    const master = await login(admin, MASTER.email, MASTER.password);
    const masterId = (await admin.app.inject({ method: 'GET', url: '/api/admin/current', cookies: { [ADMIN_COOKIE]: master } })).json().id as string;
    const side = (firstName: string, employeeId: string, flight: string) => {
      const pilot = testPilot({ firstName, lastName: 'Pilot', employeeId });
      return { pilot, trip: testTrip({ pilotId: pilot.id, flightNoStart: flight, route: 'JFK', startDate: '2027-01-12', endDate: '2027-01-15' }) };
    };
    const proposer = side('Amy', '100001', 'VS025');
    const owner = side('Ben', '100002', 'VS003');
    const agreement = (status: 'approved' | 'refused', reason: string | null) => ({
      id: randomUUID(), proposalId: randomUUID(), status, kind: 'swap' as const, reason, proposer, owner,
      agreedAt: '2026-11-20T10:00:00.000Z', closedAt: '2026-11-23T12:00:00.000Z', closedBy: masterId,
    });
    const approved = agreement('approved', null);
    const moves = [
      { tripId: proposer.trip.id, fromPilotId: proposer.pilot.id, toPilotId: owner.pilot.id },
      { tripId: owner.trip.id, fromPilotId: owner.pilot.id, toPilotId: proposer.pilot.id },
    ];
    const { db, outbox } = admin.runtime;
    await db.transaction(async (trx) => {
      await outbox.write(trx, SUBJECTS.agreementApproved, { agreement: approved, by: masterId, moves });
      await outbox.write(trx, SUBJECTS.agreementRefused, { agreement: agreement('refused', 'Ben is on standby that week'), by: masterId });
      // Recorded by a pilot before the desk existed: no administrator to name.
      await outbox.write(trx, SUBJECTS.agreementApproved, { agreement: { ...approved, id: randomUUID() }, by: proposer.pilot.id });
    });
    const entries = await eventually(async () => {
      const log = (await admin.app.inject({ method: 'GET', url: '/api/admin/activity-log', cookies: { [ADMIN_COOKIE]: master } })).json() as AdminActivityEntry[];
      const desk = log.filter((entry) => entry.action.startsWith('swap_request_'));
      return desk.length === 2 ? desk : undefined;
    });
    const byAction = Object.fromEntries(entries.map((entry) => [entry.action, entry]));
    expect(byAction.swap_request_approved).toMatchObject({ adminEmail: MASTER.email });
    expect(byAction.swap_request_approved!.detail).toContain('VS025');
    expect(byAction.swap_request_approved!.detail).toContain('to Ben Pilot (100002)');
    expect(byAction.swap_request_refused!.detail).toContain('reason: Ben is on standby that week');
  });
});
