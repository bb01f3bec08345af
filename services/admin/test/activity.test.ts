import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { AdminActivityEntry, PERMISSIONS } from '@crewswap/proto';
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
});
