/**
 * Issue 51: while NATS is away, a service's session guard asks the session's owner (auth for
 * pilots, admin for admins) over HTTP instead of trusting what it cannot check. With a NATS of
 * this test's own (never the shared one), and the real auth, admin and trips.
 */
import { randomUUID } from 'node:crypto';
import { SETTING_DEFAULTS } from '@crewswap/proto';
import { ADMIN_COOKIE, PILOT_COOKIE, SESSION_RECHECK_MS, SESSIONS_UNCHECKABLE_MESSAGE } from '../src';
import { createTestDatabase, eventually, signedElsewhere, startService, startThrowawayNats, testBaseConfig, type StartedService } from '@crewswap/kit-testing';

jest.setTimeout(90_000);

const GRACE_SECONDS = 4;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sessions while NATS is away', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let nats: Awaited<ReturnType<typeof startThrowawayNats>>;
  let auth: StartedService<'auth'>;
  let admin: StartedService<'admin'>;
  let trips: StartedService<'trips'>;
  let registered = 0;

  const address = async (service: { app: StartedService<'auth'>['app'] }) => {
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    nats = await startThrowawayNats();
    const base = { ...testBaseConfig(database.url), NATS_URL: nats.url, SESSION_OUTAGE_GRACE_SECONDS: GRACE_SECONDS };
    const settings = { get: async (key: string) => ({ ...SETTING_DEFAULTS, email_verification_enabled: 'false' })[key as keyof typeof SETTING_DEFAULTS] };
    admin = await startService('admin', base);
    auth = await startService('auth', base, { options: { settings } });
    const owners = { AUTH_URL: await address(auth), ADMIN_URL: await address(admin) };
    trips = await startService('trips', { ...base, ...owners }, { options: { settings: { get: async () => '4' } } });
  });
  afterAll(async () => {
    // Back, so that each service closes its NATS connection cleanly.
    await nats?.start().catch(() => undefined);
    // auth's HTTP port is already closed: its runtime still is not.
    for (const service of [trips, auth, admin]) await service?.close().catch(() => service.runtime.close());
    await nats?.stop().catch(() => undefined);
    await database?.drop();
  });

  /** A pilot who registers and logs in with auth (which answers while NATS is away too). */
  async function loggedInPilot(): Promise<Record<string, string>> {
    registered += 1;
    const employeeId = String(300000 + registered);
    const created = await auth.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        firstName: 'Amy',
        lastName: 'Stone',
        employeeId,
        phone: '+447700900123',
        emailPrefix: `nonats${employeeId}`,
        rank: 'CP',
        fleet: 'A350',
        base: 'LHR',
        apic: true,
        password: 'secret1',
        confirmPassword: 'secret1',
      },
    });
    expect(created.statusCode).toBe(201);
    const login = await auth.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: `nonats${employeeId}@fly.virgin.com`, password: 'secret1' } });
    expect(login.statusCode).toBe(200);
    return { [PILOT_COOKIE]: login.cookies.find((cookie) => cookie.name === PILOT_COOKIE)!.value };
  }

  async function loggedInAdmin(): Promise<Record<string, string>> {
    const login = await admin.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'admin@crewswap.local', password: 'change-me-now' } });
    expect(login.statusCode).toBe(200);
    return { [ADMIN_COOKIE]: login.cookies.find((cookie) => cookie.name === ADMIN_COOKIE)!.value };
  }

  const tripsGet = (url: string, cookies: Record<string, string>) => trips.app.inject({ method: 'GET', url, cookies });
  const forgedPilot = async () => ({ [PILOT_COOKIE]: await signedElsewhere({ sessionId: randomUUID(), pilotId: randomUUID() }) });

  it('refuses a session nobody issued, ends a session logged out during the outage within a second, and with auth down too serves only known sessions, for the grace', async () => {
    const before = await loggedInPilot();
    const loggingOut = await loggedInPilot();
    const adminBefore = await loggedInAdmin();
    await eventually(async () => (await tripsGet('/api/trips', before)).statusCode === 200 && (await tripsGet('/api/trips', loggingOut)).statusCode === 200, 10_000);
    await eventually(async () => (await tripsGet('/api/admin/iata-codes', adminBefore)).statusCode === 200, 10_000);

    await nats.stop();
    await eventually(() => !trips.runtime.guard.following(), 30_000);

    // (a) A token signed with the real key for a session auth (or admin) never issued: 401, not served.
    const forged = await tripsGet('/api/trips', await forgedPilot());
    expect([forged.statusCode, forged.json()]).toEqual([401, { error: 'Session expired' }]);
    const forgedAdmin = await tripsGet('/api/admin/iata-codes', { [ADMIN_COOKIE]: await signedElsewhere({ sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin: true }) });
    expect(forgedAdmin.statusCode).toBe(401);
    // Sessions issued before and during the outage are served (auth says they are live).
    expect((await tripsGet('/api/trips', before)).statusCode).toBe(200);
    const during = await loggedInPilot();
    expect((await tripsGet('/api/trips', during)).statusCode).toBe(200);

    // (b) A logout during the outage reaches trips within a second.
    expect((await tripsGet('/api/trips', loggingOut)).statusCode).toBe(200);
    expect((await auth.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: loggingOut })).statusCode).toBe(200);
    expect((await tripsGet('/api/admin/iata-codes', adminBefore)).statusCode).toBe(200);
    expect((await admin.app.inject({ method: 'POST', url: '/api/admin/logout', cookies: adminBefore })).statusCode).toBe(200);
    await pause(SESSION_RECHECK_MS);
    const ended = await tripsGet('/api/trips', loggingOut);
    expect([ended.statusCode, ended.json()]).toEqual([401, { error: 'Session expired', sessionEnded: 'logout' }]);
    expect((await tripsGet('/api/admin/iata-codes', adminBefore)).statusCode).toBe(401);

    // (c) Auth is away too: a session trips knows is served for the grace, then refused with 503;
    // one it does not know is refused at once.
    await pause(SESSION_RECHECK_MS);
    expect((await tripsGet('/api/trips', before)).statusCode).toBe(200);
    const lastKnownLive = Date.now();
    await auth.app.close();
    expect((await tripsGet('/api/trips', before)).statusCode).toBe(200);
    const unknown = await tripsGet('/api/trips', await forgedPilot());
    expect([unknown.statusCode, unknown.json()]).toEqual([503, { error: SESSIONS_UNCHECKABLE_MESSAGE }]);
    // The session ended during the outage stays ended.
    expect((await tripsGet('/api/trips', loggingOut)).statusCode).toBe(401);
    const refused = await eventually(async () => {
      const response = await tripsGet('/api/trips', before);
      return response.statusCode === 200 ? undefined : response;
    }, 3 * GRACE_SECONDS * 1000);
    expect([refused.statusCode, refused.json()]).toEqual([503, { error: SESSIONS_UNCHECKABLE_MESSAGE }]);
    expect(Date.now() - lastKnownLive).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - SESSION_RECHECK_MS);
    expect((await trips.app.inject('/readyz')).json().checks).toMatchObject({ database: true, revocations: false, sessions: false });
  });
});
