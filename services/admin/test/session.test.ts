import { randomUUID } from 'node:crypto';
import {
  ADMIN_COOKIE,
  createServiceApp,
  createDb,
  kitMigrations,
  migrate,
  PILOT_COOKIE,
  requestRpc,
  signPilotToken,
  startRuntime,
  type Runtime,
} from '@crewswap/kit';
import { createTestDatabase, eventually, signedElsewhere, testBaseConfig, TEST_KEYS } from '@crewswap/kit-testing';
import { CurrentAdmin, PERMISSIONS, SessionIssuedReply, sessionIssuedSubject, SUBJECTS } from '@crewswap/proto';
import type { InjectOptions } from 'fastify';
import { createAdminRepository } from '../src/data/admin-repository';
import { hashPassword } from '../src/domain/passwords';
import { migrations } from '../src/migrations';
import { adminWith, cookieOf, FUZZ_BODIES, login, MASTER, startAdmin, stopAdmin, type TestDatabase } from './helpers';

describe('admin session', () => {
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

  const inject = (options: InjectOptions) => admin.app.inject(options);
  const current = (cookie: string) => inject({ method: 'GET', url: '/api/admin/current', cookies: { [ADMIN_COOKIE]: cookie } });

  describe('master admin bootstrap', () => {
    it('creates a master admin from ADMIN_EMAIL and ADMIN_PASSWORD on first start, with every permission', async () => {
      const cookie = await login(admin, MASTER.email, MASTER.password);
      const me = CurrentAdmin.parse((await current(cookie)).json());
      expect(me).toMatchObject({ email: MASTER.email, isMasterAdmin: true });
      expect([...me.permissions].sort()).toEqual([...PERMISSIONS].sort());
    });

    it('creates nobody on a restart, even when ADMIN_EMAIL has changed', async () => {
      const again = await startAdmin(database, { prefix: admin.prefix, env: { ADMIN_EMAIL: 'other@crewswap.test', ADMIN_PASSWORD: 'another-one' } });
      try {
        expect(await createAdminRepository(again.runtime.db).count()).toBe(1);
        const refused = await again.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'other@crewswap.test', password: 'another-one' } });
        expect(refused.statusCode).toBe(401);
      } finally {
        await stopAdmin(again, { deleteStreams: false });
      }
    });

    it('creates no master admin when an admin already exists', async () => {
      const fresh = await createTestDatabase();
      const db = createDb(fresh.url, 'admin');
      try {
        await migrate(db, 'admin', { ...kitMigrations, ...migrations });
        await createAdminRepository(db).insert({
          id: randomUUID(),
          email: 'existing@crewswap.test',
          name: 'Existing',
          isMasterAdmin: false,
          permissions: ['manage_pilots'],
          passwordHash: await hashPassword('existing1'),
        });
        const service = await startAdmin(fresh);
        try {
          expect(await db('admins').pluck('email')).toEqual(['existing@crewswap.test']);
        } finally {
          await stopAdmin(service);
        }
      } finally {
        await db.destroy();
        await fresh.drop();
      }
    });

    it('creates exactly one master admin when two replicas start together', async () => {
      const fresh = await createTestDatabase();
      // Migrations run before replicas start (a hook job in Kubernetes); the race under test is the bootstrap.
      const db = createDb(fresh.url, 'admin');
      await migrate(db, 'admin', { ...kitMigrations, ...migrations });
      await db.destroy();
      try {
        const [one, two] = await Promise.all([startAdmin(fresh), startAdmin(fresh)]);
        try {
          expect(await one.runtime.db('admins').count({ n: '*' }).first()).toEqual({ n: 1 });
        } finally {
          await stopAdmin(one);
          await stopAdmin(two);
        }
      } finally {
        await fresh.drop();
      }
    });
  });

  describe('POST /api/admin/login', () => {
    it.each([
      ['both blank', { email: '', password: '' }],
      ['a blank password', { email: MASTER.email, password: '' }],
      ['a blank email', { email: '   ', password: 'x' }],
      ['missing fields', {}],
    ])('answers 400 Please enter both email and password for %s', async (_case, payload) => {
      const response = await inject({ method: 'POST', url: '/api/admin/login', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('Please enter both email and password');
    });

    it('answers 400 Please enter both email and password with no body at all', async () => {
      const response = await inject({ method: 'POST', url: '/api/admin/login' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('Please enter both email and password');
    });

    it.each([
      ['a wrong password', { email: MASTER.email, password: 'wrong-password' }],
      ['an unknown email', { email: 'nobody@crewswap.test', password: MASTER.password }],
    ])('answers 401 Invalid email or password for %s, with no cookie', async (_case, payload) => {
      const response = await inject({ method: 'POST', url: '/api/admin/login', payload });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid email or password', title: 'Login Failed' });
      expect(response.cookies.find((c) => c.name === ADMIN_COOKIE)).toBeUndefined();
    });

    it('refuses an admin who has no password yet', async () => {
      await createAdminRepository(admin.runtime.db).insert({
        id: randomUUID(),
        email: 'nopassword@crewswap.test',
        name: 'New',
        isMasterAdmin: false,
        permissions: [],
        passwordHash: null,
      });
      const response = await inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'nopassword@crewswap.test', password: 'anything' } });
      expect(response.statusCode).toBe(401);
    });

    it('logs in with the email in any case and spaces around it, sets an httpOnly SameSite=Lax cookie and records the login', async () => {
      admin.clock.set('2026-11-23T11:00:00Z');
      const response = await inject({ method: 'POST', url: '/api/admin/login', payload: { email: `  ${MASTER.email.toUpperCase()} `, password: MASTER.password } });
      expect(response.statusCode).toBe(200);
      expect(CurrentAdmin.parse(response.json()).email).toBe(MASTER.email);
      const cookie = response.cookies.find((c) => c.name === ADMIN_COOKIE);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      const found = await createAdminRepository(admin.runtime.db).findWithPasswordByEmail(MASTER.email);
      expect(found?.admin.lastLoginAt).toBe('2026-11-23T11:00:00.000Z');
      expect(await admin.runtime.db('admin_sessions').where({ admin_id: found!.admin.id }).whereNull('ended_at').count({ n: '*' }).first()).toEqual({
        n: expect.any(Number),
      });
    });

    it('answers 400, never 500, to fuzzed bodies', async () => {
      for (const payload of FUZZ_BODIES) {
        const response = await inject({ method: 'POST', url: '/api/admin/login', payload, headers: { 'content-type': 'application/json' } });
        expect({ payload: payload.slice(0, 60), status: response.statusCode }).toEqual({ payload: payload.slice(0, 60), status: 400 });
        expect(typeof response.json().error).toBe('string');
      }
    });
  });

  describe('GET /api/admin/current', () => {
    it('answers the current admin: id, name, email, isMasterAdmin, permissions', async () => {
      const cookie = await adminWith(admin, ['manage_pilots', 'view_analytics']);
      const response = await current(cookie);
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json()).sort()).toEqual(['email', 'id', 'isMasterAdmin', 'name', 'permissions']);
      expect(response.json()).toMatchObject({ name: 'Test Admin', isMasterAdmin: false, permissions: ['manage_pilots', 'view_analytics'] });
    });

    it('answers 401 without a session', async () => {
      const response = await inject({ method: 'GET', url: '/api/admin/current' });
      expect(response.statusCode).toBe(401);
    });

    it('answers 401 to a pilot cookie, and to a pilot token placed in the admin cookie', async () => {
      const pilotToken = signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() });
      expect((await inject({ method: 'GET', url: '/api/admin/current', cookies: { [PILOT_COOKIE]: pilotToken } })).statusCode).toBe(401);
      expect((await current(pilotToken)).statusCode).toBe(401);
      expect((await current('not-a-token')).statusCode).toBe(401);
    });
  });

  describe('POST /api/admin/logout', () => {
    let other: Runtime;
    let otherApp: ReturnType<typeof createServiceApp>;

    beforeAll(async () => {
      // Another service on the same bus, guarding its own routes with the kit's session guard.
      other = await startRuntime({ name: 'other', schema: 'other', migrations: {}, config: testBaseConfig(database.url, admin.prefix) });
      otherApp = createServiceApp({ name: 'other', logger: other.log, readiness: other.readiness });
      otherApp.get('/whoami', async (request) => other.guard.admin(request));
    });
    afterAll(async () => {
      await otherApp.close();
      await other.close();
    });

    it('ends the session: the cookie is cleared, this service refuses it at once and another service within a second', async () => {
      const cookie = await login(admin, MASTER.email, MASTER.password);
      const elsewhere = () => otherApp.inject({ method: 'GET', url: '/whoami', cookies: { [ADMIN_COOKIE]: cookie } });
      expect((await elsewhere()).statusCode).toBe(200);
      expect((await current(cookie)).statusCode).toBe(200);

      const response = await inject({ method: 'POST', url: '/api/admin/logout', cookies: { [ADMIN_COOKIE]: cookie } });
      expect(response.statusCode).toBe(200);
      const cleared = response.cookies.find((c) => c.name === ADMIN_COOKIE);
      expect(cleared?.value).toBe('');
      expect((await current(cookie)).statusCode).toBe(401);

      const started = Date.now();
      await eventually(async () => (await elsewhere()).statusCode === 401, 1000);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('records the end of the session and publishes admin.session.revoked to JetStream', async () => {
      const cookie = await login(admin, MASTER.email, MASTER.password);
      const sessionId = (JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
      await inject({ method: 'POST', url: '/api/admin/logout', cookies: { [ADMIN_COOKIE]: cookie } });
      const row = await admin.runtime.db('admin_sessions').where({ id: sessionId }).first();
      expect(row.end_reason).toBe('logout');
      expect(row.ended_at).not.toBeNull();
      const bus = admin.runtime.bus;
      const stored = await eventually(async () => {
        const message = await bus.jsm.streams.getMessage(bus.stream('ADMIN'), { last_by_subj: bus.subject(SUBJECTS.adminSessionRevoked) });
        const event = message.json<{ data: { sessionId: string } }>();
        return event.data.sessionId === sessionId ? event : undefined;
      }, 2000);
      expect(stored.data).toEqual({ sessionId, adminId: expect.any(String) });
    });

    it('answers ok without a session, and with an already ended one', async () => {
      const none = await inject({ method: 'POST', url: '/api/admin/logout' });
      expect(none.statusCode).toBe(200);
      const cookie = await login(admin, MASTER.email, MASTER.password);
      await inject({ method: 'POST', url: '/api/admin/logout', cookies: { [ADMIN_COOKIE]: cookie } });
      const again = await inject({ method: 'POST', url: '/api/admin/logout', cookies: { [ADMIN_COOKIE]: cookie } });
      expect(again.statusCode).toBe(200);
    });
  });

  it('answers health, readiness and metrics', async () => {
    expect((await inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { database: true, nats: true, revocations: true, sessions: true } });
    expect((await inject({ method: 'GET', url: '/metrics' })).body).toContain('http_request_duration_seconds');
  });

  it('announces every session it issues (admin.session.started), answers whether it issued one, and every service refuses one it never issued', async () => {
    const cookie = await login(admin, MASTER.email, MASTER.password);
    const sessionId = JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()).sid as string;
    const started = await admin.runtime.db('outbox').where({ subject: SUBJECTS.adminSessionStarted }).select('envelope');
    expect(started.map((row: { envelope: { data: { sessionId: string } } }) => row.envelope.data.sessionId)).toContain(sessionId);
    const ask = (id: string) => requestRpc(admin.runtime.bus, sessionIssuedSubject('admin'), { sessionId: id }, SessionIssuedReply);
    expect(await ask(sessionId)).toEqual({ issued: true });
    expect(await ask(randomUUID())).toEqual({ issued: false });
    // A master admin's token signed with the real key for a session nobody issued opens nothing.
    const forged = await signedElsewhere({ sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin: true });
    const response = await inject({ method: 'GET', url: '/api/admin/settings', cookies: { [ADMIN_COOKIE]: forged } });
    expect([response.statusCode, response.json()]).toEqual([401, { error: 'Session expired' }]);
  });

  it('keeps the cookie it was given usable for /current until logout', async () => {
    const response = await inject({ method: 'POST', url: '/api/admin/login', payload: MASTER });
    expect((await current(cookieOf(response))).statusCode).toBe(200);
  });
});
