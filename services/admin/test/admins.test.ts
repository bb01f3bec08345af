import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, connectBus, PILOT_COOKIE, signPilotToken, startSessionGuard, type Bus, type SessionGuard } from '@crewswap/kit';
import { createTestDatabase, eventually, testBaseConfig, TEST_KEYS } from '@crewswap/kit-testing';
import { Admin, PERMISSIONS, type Permission } from '@crewswap/proto';
import { adminWith, login, MASTER, startAdmin, stopAdmin, type TestDatabase } from './helpers';

describe('administrator management', () => {
  let database: TestDatabase;
  let admin: Awaited<ReturnType<typeof startAdmin>>;
  let master: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await startAdmin(database);
    master = await login(admin, MASTER.email, MASTER.password);
  });
  afterAll(async () => {
    await stopAdmin(admin);
    await database.drop();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string | undefined, payload?: unknown) =>
    admin.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), cookies: cookie ? { [ADMIN_COOKIE]: cookie } : {} });
  const body = (overrides: Record<string, unknown> = {}) => ({
    email: `${randomUUID()}@crewswap.test`,
    name: 'Ops Admin',
    phone: '+441234',
    jobTitle: 'Duty manager',
    isMasterAdmin: false,
    permissions: ['manage_pilots'],
    ...overrides,
  });
  async function create(overrides: Record<string, unknown> = {}, cookie = master): Promise<Admin> {
    const response = await call('POST', '/api/admin/admins', cookie, body(overrides));
    expect(response.statusCode).toBe(201);
    return Admin.parse(response.json());
  }
  /** A created admin given a password and signed in: answers the admin and its session cookie. */
  async function signedIn(permissions: Permission[], isMasterAdmin = false): Promise<{ admin: Admin; cookie: string }> {
    const created = await create({ permissions, isMasterAdmin });
    expect((await call('POST', `/api/admin/admins/${created.id}/set-password`, master, { password: 'secret1', confirmPassword: 'secret1' })).statusCode).toBe(200);
    return { admin: created, cookie: await login(admin, created.email, 'secret1') };
  }
  const masterId = async () => ((await call('GET', '/api/admin/current', master)).json() as { id: string }).id;

  describe('permission matrix', () => {
    const routes = (id: string): [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown][] => [
      ['list', 'GET', '/api/admin/admins', undefined],
      ['create', 'POST', '/api/admin/admins', body()],
      ['edit', 'PUT', `/api/admin/admins/${id}`, body()],
      ['set-password', 'POST', `/api/admin/admins/${id}/set-password`, { password: 'secret1' }],
      ['delete', 'DELETE', `/api/admin/admins/${id}`, undefined],
    ];

    it('refuses every admin route with no session, a pilot session or an admin without manage_admins', async () => {
      const target = await create();
      const pilot = signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() });
      const without = await adminWith(admin, PERMISSIONS.filter((p) => p !== 'manage_admins'));
      for (const [, method, url, payload] of routes(target.id)) {
        expect((await call(method, url, undefined, payload)).statusCode).toBe(401);
        const asPilot = await admin.app.inject({ method, url, ...(payload ? { payload: payload as object } : {}), cookies: { [PILOT_COOKIE]: pilot } });
        expect(asPilot.statusCode).toBe(401);
        expect((await call(method, url, without, payload)).statusCode).toBe(403);
      }
      expect((await call('GET', `/api/admin/admins`, master)).json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: target.id })]));
    });

    it('lets an admin with manage_admins, and the master admin, use every route', async () => {
      const manager = await adminWith(admin, ['manage_admins']);
      for (const cookie of [manager, master]) {
        const target = await create({}, cookie);
        for (const [name, method, url, payload] of routes(target.id)) {
          const response = await call(method, url, cookie, payload);
          expect([name, response.statusCode]).toEqual([name, name === 'create' ? 201 : 200]);
        }
      }
    });
  });

  describe('GET /api/admin/admins', () => {
    it('lists admins with name, email, role, permissions and last login, never a password', async () => {
      const response = await call('GET', '/api/admin/admins', master);
      expect(response.statusCode).toBe(200);
      const admins = response.json() as Admin[];
      for (const a of admins) expect(Admin.strict().parse(a)).toEqual(a);
      expect(admins[0]).toMatchObject({ email: MASTER.email, isMasterAdmin: true, permissions: [...PERMISSIONS] });
      expect(admins[0]!.lastLoginAt).toBe('2026-11-23T10:15:00.000Z');
    });
  });

  describe('POST /api/admin/admins', () => {
    it('creates an admin without a password, with its permissions in the spec order', async () => {
      const created = await create({ permissions: ['view_analytics', 'manage_pilots', 'view_analytics'], email: '  New.Admin@CrewSwap.test ' });
      expect(created).toMatchObject({ email: 'new.admin@crewswap.test', permissions: ['manage_pilots', 'view_analytics'], isMasterAdmin: false, lastLoginAt: null });
      const refused = await admin.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: created.email, password: '' } });
      expect(refused.statusCode).toBe(400);
    });

    it.each<[Record<string, unknown>, string]>([
      [{ name: '' }, 'Name is required'],
      [{ name: '   ' }, 'Name is required'],
      [{ name: undefined }, 'Name is required'],
      [{ email: '' }, 'Email is required'],
      [{ email: undefined }, 'Email is required'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ permissions: ['make_coffee'] }, 'Invalid option: expected one of "manage_pilots"|"manage_destinations"|"manage_admins"|"view_analytics"|"manage_settings"|"view_security_alerts"|"manage_system"'],
    ])('refuses %j with "%s" and creates nothing', async (overrides, message) => {
      const before = (await call('GET', '/api/admin/admins', master)).json().length;
      const response = await call('POST', '/api/admin/admins', master, body(overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toContain(message.split(':')[0]);
      expect((await call('GET', '/api/admin/admins', master)).json()).toHaveLength(before);
    });

    it('refuses a second admin with the same email', async () => {
      const first = await create();
      const response = await call('POST', '/api/admin/admins', master, body({ email: first.email.toUpperCase() }));
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('An admin with this email already exists');
    });

    it('lets only the master admin mark an admin as master admin, who then holds every permission', async () => {
      const manager = await adminWith(admin, ['manage_admins']);
      expect((await call('POST', '/api/admin/admins', manager, body({ isMasterAdmin: true }))).statusCode).toBe(403);
      const made = await create({ isMasterAdmin: true, permissions: [] });
      expect(made).toMatchObject({ isMasterAdmin: true, permissions: [...PERMISSIONS] });
    });
  });

  describe('PUT /api/admin/admins/{id}', () => {
    it('edits name, email, phone, job title and permissions', async () => {
      const target = await create();
      const response = await call('PUT', `/api/admin/admins/${target.id}`, master, {
        ...body({ name: 'Renamed', email: 'renamed@crewswap.test', phone: '', jobTitle: null, permissions: ['manage_system'] }),
        id: target.id,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: target.id, name: 'Renamed', email: 'renamed@crewswap.test', phone: null, jobTitle: null, permissions: ['manage_system'] });
    });

    it('lets an admin with manage_admins edit non-master admins only, and never change the master flag', async () => {
      const manager = await adminWith(admin, ['manage_admins']);
      const other = await create();
      const otherMaster = await create({ isMasterAdmin: true });
      expect((await call('PUT', `/api/admin/admins/${otherMaster.id}`, manager, body({ isMasterAdmin: true }))).statusCode).toBe(403);
      expect((await call('PUT', `/api/admin/admins/${other.id}`, manager, body({ isMasterAdmin: true }))).statusCode).toBe(403);
      expect((await call('PUT', `/api/admin/admins/${other.id}`, manager, body({ name: 'Fine' }))).statusCode).toBe(200);
      expect((await call('PUT', `/api/admin/admins/${otherMaster.id}`, master, body({ isMasterAdmin: false }))).json()).toMatchObject({
        isMasterAdmin: false,
      });
    });

    it('answers 404 for an unknown admin and 400 for a bad id or a mismatched body id', async () => {
      expect((await call('PUT', `/api/admin/admins/${randomUUID()}`, master, body())).statusCode).toBe(404);
      expect((await call('PUT', `/api/admin/admins/not-an-id`, master, body())).statusCode).toBe(400);
      const target = await create();
      expect((await call('PUT', `/api/admin/admins/${target.id}`, master, { ...body(), id: randomUUID() })).statusCode).toBe(400);
    });

    it('keeps the master admin master: no one removes their own master status', async () => {
      const response = await call('PUT', `/api/admin/admins/${await masterId()}`, master, body({ email: MASTER.email, isMasterAdmin: false }));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('You cannot remove your own master admin status');
    });
  });

  describe('DELETE /api/admin/admins/{id}', () => {
    it('deletes an admin', async () => {
      const target = await create();
      expect((await call('DELETE', `/api/admin/admins/${target.id}`, master)).statusCode).toBe(200);
      expect((await call('GET', '/api/admin/admins', master)).json()).not.toEqual(expect.arrayContaining([expect.objectContaining({ id: target.id })]));
      expect((await call('DELETE', `/api/admin/admins/${target.id}`, master)).statusCode).toBe(404);
    });

    it('never deletes a master admin, not even for the master admin', async () => {
      const otherMaster = await create({ isMasterAdmin: true });
      const response = await call('DELETE', `/api/admin/admins/${otherMaster.id}`, master);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('The master admin cannot be deleted');
    });

    it('no one deletes themself', async () => {
      const manager = await signedIn(['manage_admins']);
      const response = await call('DELETE', `/api/admin/admins/${manager.admin.id}`, manager.cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('You cannot delete your own account');
      expect((await call('DELETE', `/api/admin/admins/${await masterId()}`, master)).statusCode).toBe(403);
    });
  });

  describe('POST /api/admin/admins/{id}/set-password', () => {
    it.each<[Record<string, unknown>, string]>([
      [{ password: 'secret1', confirmPassword: 'secret2' }, 'Passwords do not match'],
      [{ password: 'short', confirmPassword: 'short' }, 'Password must be at least 6 characters long'],
      [{ password: 'short' }, 'Password must be at least 6 characters long'],
      [{}, 'Password must be at least 6 characters long'],
    ])('refuses %j with "%s"', async (payload, message) => {
      const target = await create();
      const response = await call('POST', `/api/admin/admins/${target.id}/set-password`, master, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(message);
    });

    it('sets an initial password the admin then logs in with, and only while the admin has never logged in', async () => {
      const { admin: target } = await signedIn(['manage_pilots']);
      const again = await call('POST', `/api/admin/admins/${target.id}/set-password`, master, { password: 'another1', confirmPassword: 'another1' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('A password can only be set for an admin who has never logged in');
      expect((await login(admin, target.email, 'secret1')).length).toBeGreaterThan(0);
    });

    it('lets an admin with manage_admins set it for non-master admins only', async () => {
      const manager = await adminWith(admin, ['manage_admins']);
      const otherMaster = await create({ isMasterAdmin: true });
      expect((await call('POST', `/api/admin/admins/${otherMaster.id}/set-password`, manager, { password: 'secret1' })).statusCode).toBe(403);
      const plain = await create();
      expect((await call('POST', `/api/admin/admins/${plain.id}/set-password`, manager, { password: 'secret1' })).statusCode).toBe(200);
    });
  });

  describe('a permission change or deletion takes effect on the next request in every service', () => {
    let bus: Bus;
    let elsewhere: SessionGuard;
    beforeAll(async () => {
      // Another service's guard, following the same revocation stream.
      const { NATS_URL } = testBaseConfig(database.url, admin.prefix);
      bus = await connectBus({ url: NATS_URL, prefix: admin.prefix, name: 'other', log: admin.runtime.log });
      elsewhere = await startSessionGuard({ publicKey: TEST_KEYS.publicKey, bus, log: admin.runtime.log });
    });
    afterAll(async () => {
      await elsewhere.stop();
      await bus.close();
    });
    const sessionIdOf = (cookie: string) => (JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

    it('ends the sessions of an admin whose permissions change, here at once and elsewhere through the event', async () => {
      const target = await signedIn(['manage_admins']);
      expect((await call('GET', '/api/admin/admins', target.cookie)).statusCode).toBe(200);
      const unchanged = await call('PUT', `/api/admin/admins/${target.admin.id}`, master, body({ email: target.admin.email, permissions: ['manage_admins'], name: 'Same rights' }));
      expect(unchanged.statusCode).toBe(200);
      expect((await call('GET', '/api/admin/admins', target.cookie)).statusCode).toBe(200);

      expect((await call('PUT', `/api/admin/admins/${target.admin.id}`, master, body({ email: target.admin.email, permissions: ['manage_pilots'] }))).statusCode).toBe(200);
      expect((await call('GET', '/api/admin/admins', target.cookie)).statusCode).toBe(401);
      await eventually(() => elsewhere.isRevoked(sessionIdOf(target.cookie)));

      // Signing in again gives a session with the new permissions only.
      const fresh = await login(admin, target.admin.email, 'secret1');
      expect((await call('GET', '/api/admin/admins', fresh)).statusCode).toBe(403);
      expect((await call('GET', '/api/admin/current', fresh)).json()).toMatchObject({ permissions: ['manage_pilots'] });
    });

    it('ends the sessions of a deleted admin', async () => {
      const target = await signedIn(['manage_admins']);
      expect((await call('DELETE', `/api/admin/admins/${target.admin.id}`, master)).statusCode).toBe(200);
      expect((await call('GET', '/api/admin/admins', target.cookie)).statusCode).toBe(401);
      await eventually(() => elsewhere.isRevoked(sessionIdOf(target.cookie)));
      const refused = await admin.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: target.admin.email, password: 'secret1' } });
      expect(refused.statusCode).toBe(401);
    });
  });
});
