import { randomUUID } from 'node:crypto';
import { SUBJECTS } from '@crewswap/proto';
import { ADMIN_COOKIE, createServiceApp, PILOT_COOKIE, serveSessionIssued, serveSessionState, startRuntime, startSessionGuard, type Runtime } from '../src';
import { createTestDatabase, eventually, signedElsewhere, testBaseConfig, TEST_KEYS } from '@crewswap/kit-testing';

jest.setTimeout(60_000);

describe('sessions that were never issued', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const runtimes: Runtime[] = [];
  let trips: Runtime;
  let auth: Runtime;
  /** Stands in for auth's session table: what auth answers when asked. */
  const issuedByAuth = new Set<string>();

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testBaseConfig(database.url);
    auth = await startRuntime({ name: 'auth', schema: 'auth_test', migrations: {}, config });
    runtimes.push(auth);
    const rpc = serveSessionIssued({ bus: auth.bus, log: auth.log, service: 'auth', issued: async (id) => issuedByAuth.has(id) });
    auth.onClose(() => rpc.unsubscribe());
    trips = await startRuntime({ name: 'trips', schema: 'trips_test', migrations: {}, config });
    runtimes.push(trips);
  });
  afterAll(async () => {
    for (const runtime of runtimes.reverse()) await runtime.close();
    await database.drop();
  });

  function tripsApp() {
    const app = createServiceApp({ name: 'trips', logger: trips.log, readiness: trips.readiness });
    app.get('/api/trips', async (request) => trips.guard.pilot(request));
    return app;
  }

  it('a token signed with the real key for a session auth never issued is refused with Session expired', async () => {
    const app = tripsApp();
    const response = await app.inject({ method: 'GET', url: '/api/trips', cookies: { [PILOT_COOKIE]: await signedElsewhere({ sessionId: randomUUID(), pilotId: randomUUID() }) } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Session expired' });
    await app.close();
  });

  it('a session auth announced (auth.session.started) is served', async () => {
    const app = tripsApp();
    const session = { sessionId: randomUUID(), pilotId: randomUUID() };
    await auth.db.transaction((trx) => auth.outbox.write(trx, SUBJECTS.sessionStarted, session));
    const cookies = { [PILOT_COOKIE]: await signedElsewhere(session) };
    await eventually(async () => (await app.inject({ method: 'GET', url: '/api/trips', cookies })).statusCode === 200, 10_000);
    expect((await app.inject({ method: 'GET', url: '/api/trips', cookies })).json()).toMatchObject(session);
    await app.close();
  });

  it('a session auth ended is refused with Session expired and why (an emergency shutdown, a login elsewhere)', async () => {
    const app = tripsApp();
    for (const reason of ['admin_shutdown', 'logged_in_elsewhere'] as const) {
      const session = { sessionId: randomUUID(), pilotId: randomUUID() };
      await auth.db.transaction((trx) => auth.outbox.write(trx, SUBJECTS.sessionStarted, session));
      const cookies = { [PILOT_COOKIE]: await signedElsewhere(session) };
      await eventually(async () => (await app.inject({ method: 'GET', url: '/api/trips', cookies })).statusCode === 200, 10_000);
      await auth.db.transaction((trx) => auth.outbox.write(trx, SUBJECTS.sessionRevoked, { ...session, reason }));
      await eventually(async () => (await app.inject({ method: 'GET', url: '/api/trips', cookies })).statusCode === 401, 10_000);
      expect((await app.inject({ method: 'GET', url: '/api/trips', cookies })).json()).toEqual({ error: 'Session expired', sessionEnded: reason });
    }
    await app.close();
  });

  it('a service started after the session was issued learns it from the stream', async () => {
    const session = { sessionId: randomUUID(), pilotId: randomUUID() };
    await auth.db.transaction((trx) => auth.outbox.write(trx, SUBJECTS.sessionStarted, session));
    // Published before the new process starts (auth would not be asked: it answers no for this one).
    await eventually(async () => Number((await auth.db('outbox').whereNull('published_at').count({ n: '*' }).first())?.n) === 0, 10_000);
    const late = await startSessionGuard({ publicKey: TEST_KEYS.publicKey, bus: trips.bus, log: trips.log });
    try {
      const request = { cookies: { [PILOT_COOKIE]: await signedElsewhere(session) } } as unknown as Parameters<typeof late.pilot>[0];
      expect(await late.pilot(request)).toMatchObject(session);
    } finally {
      await late.stop();
    }
  });

  it('a session issued a moment ago, before its event arrived, is asked about and served', async () => {
    const app = tripsApp();
    const session = { sessionId: randomUUID(), pilotId: randomUUID() };
    // Issued (in auth's table) but not announced: as a guard sees a login made a millisecond ago.
    issuedByAuth.add(session.sessionId);
    const response = await app.inject({ method: 'GET', url: '/api/trips', cookies: { [PILOT_COOKIE]: await signedElsewhere(session) } });
    expect(response.statusCode).toBe(200);
    await app.close();
  });

  it('an owner that does not answer over NATS is asked over HTTP (GET /internal/sessions/{id})', async () => {
    // Admin is not on this NATS at all: only its HTTP port can say (here a stand-in for its session table).
    const issuedByAdmin = new Set<string>();
    const admin = createServiceApp({ name: 'admin', logger: trips.log, readiness: {} });
    serveSessionState(admin, async (id) => ({ state: issuedByAdmin.has(id) ? 'live' : 'never-issued' }));
    await admin.listen({ port: 0, host: '127.0.0.1' });
    const owners = { auth: 'http://127.0.0.1:1', admin: `http://127.0.0.1:${(admin.server.address() as { port: number }).port}` };
    const guard = await startSessionGuard({ publicKey: TEST_KEYS.publicKey, bus: trips.bus, log: trips.log, owners });
    try {
      const requestWith = async (session: { sessionId: string; adminId: string }) =>
        ({ cookies: { [ADMIN_COOKIE]: await signedElsewhere(session) } }) as unknown as Parameters<typeof guard.admin>[0];
      const issued = { sessionId: randomUUID(), adminId: randomUUID() };
      issuedByAdmin.add(issued.sessionId);
      expect(await guard.admin(await requestWith(issued))).toMatchObject(issued);
      await expect(guard.admin(await requestWith({ sessionId: randomUUID(), adminId: randomUUID() }))).rejects.toMatchObject({ status: 401 });
    } finally {
      await guard.stop();
      await admin.close();
    }
  });
});
