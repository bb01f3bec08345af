import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, deleteStreams, fixedClock, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, startService, TEST_KEYS, testBaseConfig, type StartedService } from '@crewswap/kit-testing';
import { EMERGENCY_SHUTDOWN_MESSAGE, OPERATIONS_RESUMED_MESSAGE, PERMISSIONS, SUBJECTS } from '@crewswap/proto';
import { adminWith, cookieOf, login, MASTER, startAdmin, stopAdmin, type TestDatabase } from './helpers';

describe('emergency controls', () => {
  let database: TestDatabase;
  // The whole path end to end: the real auth service on the same bus ends the pilot sessions.
  let auth: StartedService<'auth'>;
  let admin: Awaited<ReturnType<typeof startAdmin>>;
  let master: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await startAdmin(database);
    master = await login(admin, MASTER.email, MASTER.password);
    // Registration without a mailed code keeps the test short; auth reads the setting from admin on every request.
    const off = await admin.app.inject({ method: 'PUT', url: '/api/admin/settings/email_verification_enabled', payload: { value: 'false' }, cookies: { [ADMIN_COOKIE]: master } });
    expect(off.statusCode).toBe(200);
    // Auth shares admin's database (its own schema) and NATS prefix, as in a deployment.
    auth = await startService('auth', testBaseConfig(database.url, admin.prefix), { env: { SETTINGS_CACHE_MS: '0' }, options: { clock: fixedClock('2026-11-01T12:00:00Z') } });
  });
  afterAll(async () => {
    await deleteStreams(admin.runtime.bus);
    await auth?.close();
    await stopAdmin(admin, { deleteStreams: false });
    await database.drop();
  });

  const pilotLogin = (email: string, password: string) => auth.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  let employeeId = 100_000 + Math.floor(Math.random() * 800_000);
  /** A pilot registered and signed in through auth's own routes, as the app does it. */
  const signedIn = async () => {
    employeeId += 1;
    const password = 'secret1';
    const body = { firstName: 'amy', lastName: 'stone', employeeId: String(employeeId), phone: '+44 7700 900000', emailPrefix: `pilot${employeeId}`, rank: 'CP', fleet: 'A350', base: 'LHR', apic: true, ltc: false, usualReq: true, password, confirmPassword: password };
    const registered = await auth.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
    expect(registered.statusCode).toBe(201);
    const pilot = { email: (registered.json() as { pilot: { email: string } }).pilot.email, password };
    return { pilot, cookie: cookieOf(await pilotLogin(pilot.email, password), PILOT_COOKIE) };
  };

  const call = (method: 'GET' | 'POST', url: string, cookies: Record<string, string>, payload?: unknown) =>
    admin.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), cookies });
  const asAdmin = (cookie: string) => ({ [ADMIN_COOKIE]: cookie });
  const pilotCurrent = (cookie: string) => auth.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: { [PILOT_COOKIE]: cookie } });

  it('needs view_security_alerts (the Security menu) or manage_system for every emergency route: 401 without a session or with a pilot session, 403 without either', async () => {
    const pilot = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() }) };
    const without = asAdmin(await adminWith(admin, PERMISSIONS.filter((p) => p !== 'manage_system' && p !== 'view_security_alerts')));
    const security = asAdmin(await adminWith(admin, ['view_security_alerts']));
    const system = asAdmin(await adminWith(admin, ['manage_system']));
    const routes: ['GET' | 'POST', string, unknown][] = [
      ['GET', '/api/admin/emergency-status', undefined],
      ['POST', '/api/admin/emergency-shutdown', { reason: 'matrix' }],
      ['POST', '/api/admin/resume-operations', undefined],
      ['POST', '/api/admin/restart-server', undefined],
    ];
    for (const [method, url, payload] of routes) {
      expect([url, (await call(method, url, {}, payload)).statusCode]).toEqual([url, 401]);
      expect([url, (await call(method, url, pilot, payload)).statusCode]).toEqual([url, 401]);
      expect([url, (await call(method, url, without, payload)).statusCode]).toEqual([url, 403]);
    }
    for (const cookies of [security, system, asAdmin(master)]) {
      for (const [method, url, payload] of routes) expect([url, (await call(method, url, cookies, payload)).statusCode]).toEqual([url, 200]);
    }
  });

  it('refuses a bare POST to emergency-shutdown and changes nothing', async () => {
    for (const payload of [undefined, 'EMERGENCY', [], { reason: 1 }, { reason: 'x', confirm: true }]) {
      const response = await admin.app.inject({
        method: 'POST',
        url: '/api/admin/emergency-shutdown',
        cookies: asAdmin(master),
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }),
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await call('GET', '/api/admin/emergency-status', asAdmin(master))).json()).toEqual({ isShutdown: false });
  });

  it('ends every pilot session at once, answers how many, and refuses pilot logins until operations resume', async () => {
    const first = await signedIn();
    const second = await signedIn();
    expect((await pilotCurrent(first.cookie)).statusCode).toBe(200);

    const shutdown = await call('POST', '/api/admin/emergency-shutdown', asAdmin(master), { reason: 'Roster data incident' });
    expect(shutdown.statusCode).toBe(200);
    expect(shutdown.json()).toEqual({ message: EMERGENCY_SHUTDOWN_MESSAGE, sessionsTerminated: 2 });
    expect((await call('GET', '/api/admin/emergency-status', asAdmin(master))).json()).toEqual({ isShutdown: true });
    expect((await pilotCurrent(first.cookie)).statusCode).toBe(401);
    expect((await pilotCurrent(second.cookie)).statusCode).toBe(401);
    const refused = await pilotLogin(first.pilot.email, first.pilot.password);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ systemShutdown: true, title: 'System Temporarily Unavailable' });
    const events = await admin.runtime.db('outbox').where({ subject: SUBJECTS.systemShutdown }).select('envelope');
    expect(events.map((row: { envelope: { data: unknown } }) => row.envelope.data)).toContainEqual({ reason: 'Roster data incident' });

    const resumed = await call('POST', '/api/admin/resume-operations', asAdmin(master));
    expect(resumed.json()).toEqual({ message: OPERATIONS_RESUMED_MESSAGE });
    expect((await call('GET', '/api/admin/emergency-status', asAdmin(master))).json()).toEqual({ isShutdown: false });
    expect((await pilotLogin(first.pilot.email, first.pilot.password)).statusCode).toBe(200);
  });

  it('accepts a shutdown without a reason (the reason is optional), ending the sessions opened since the last resume', async () => {
    const pilot = await signedIn();
    const response = await call('POST', '/api/admin/emergency-shutdown', asAdmin(master), {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: EMERGENCY_SHUTDOWN_MESSAGE, sessionsTerminated: 2 });
    expect((await pilotCurrent(pilot.cookie)).statusCode).toBe(401);
    expect((await call('POST', '/api/admin/resume-operations', asAdmin(master))).statusCode).toBe(200);
  });

  it('announces a requested restart on admin.system.restart', async () => {
    expect((await call('POST', '/api/admin/restart-server', asAdmin(master))).statusCode).toBe(200);
    expect(await admin.runtime.db('outbox').where({ subject: SUBJECTS.systemRestart }).count({ n: '*' }).first()).not.toEqual({ n: '0' });
  });
});
