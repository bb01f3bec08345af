/**
 * The permission matrix of the admin spec (section 6), across every service: every admin route
 * of every service, called with no session, a pilot session, an admin without the permission,
 * an admin with it (each permission that grants it, alone) and a master admin. The rules come
 * from proto's ADMIN_ROUTE_PERMISSIONS; the routes from the services themselves, so a new admin
 * route missing from the table fails here. Every service runs in this process on one database
 * and one NATS prefix.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, deleteStreams, fixedClock, PILOT_COOKIE, signPilotToken, type Runtime } from '@crewswap/kit';
import { createTestDatabase, startService, startServices, testBaseConfig, TEST_KEYS, uniqueName, type StartedService } from '@crewswap/kit-testing';
import { ADMIN_ROUTE_PERMISSIONS, PERMISSIONS, SETTING_PERMISSIONS, type AdminRouteRule, type Permission } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';

jest.setTimeout(300_000);

const MASTER = { email: 'matrix-master@crewswap.test', password: 'matrix-master-1' };
/** The key a settings route is tried with; its rule is SETTING_PERMISSIONS for that key. */
const SETTING_KEY = 'swap_search_days';

/** The permissions that grant a route (empty: any admin), or 'master' for master admins only. */
function granting(rule: AdminRouteRule): readonly Permission[] | 'master' {
  if ('master' in rule) return 'master';
  if ('anyAdmin' in rule) return [];
  if ('perSetting' in rule) return SETTING_PERMISSIONS[SETTING_KEY];
  return rule.anyOf;
}

describe('the permission matrix: every admin route of every service', () => {
  const prefix = uniqueName('perm');
  const clock = fixedClock('2026-11-01T12:00:00Z');
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const services: { name: string; app: FastifyInstance; runtime: Runtime; close(): Promise<void> }[] = [];
  let admin: StartedService<'admin'>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const base = { ...testBaseConfig(database.url, prefix), PORT: 0 };
    admin = await startService('admin', base, { env: { ADMIN_EMAIL: MASTER.email, ADMIN_PASSWORD: MASTER.password }, options: { clock } });
    services.push({ name: 'admin', ...admin });
    const others = await startServices(['auth', 'trips', 'swaps', 'notifications', 'roster-ingest', 'links'], base, {
      env: { auth: { SETTINGS_CACHE_MS: '0' }, 'roster-ingest': { SMTP_INGEST_ENABLED: 'false', MAIL_WORKER_ENABLED: 'false' } },
      options: { clock },
    });
    services.push(...others);
    // Some services add routes once their plugins have loaded.
    for (const service of services) await service.app.ready();
  });
  afterAll(async () => {
    if (services[0]) await deleteStreams(services[0].runtime.bus);
    for (const service of services.reverse()) await service.close();
    await database?.drop();
  });

  /** Every admin route each service registered, except signing in and out. */
  const adminRoutes = () =>
    services.flatMap((service) =>
      service.app.routeList
        .filter((route) => route.method !== 'HEAD' && route.url.startsWith('/api/admin/') && !/\/(login|logout)$/.test(route.url))
        .map((route) => ({ service, key: `${route.method} ${route.url}`, ...route })),
    );

  it('names every admin route of every service, and no route that does not exist', () => {
    const registered = adminRoutes().map((route) => route.key);
    expect(registered.filter((key) => !(key in ADMIN_ROUTE_PERMISSIONS))).toEqual([]);
    expect(Object.keys(ADMIN_ROUTE_PERMISSIONS).filter((key) => !registered.includes(key))).toEqual([]);
  });

  it('refuses no session and a pilot session (401) and an admin without the permission (403); lets an admin with it, and a master admin, through', async () => {
    const login = async (email: string, password: string) => {
      const response = await admin.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password } });
      expect(response.statusCode).toBe(200);
      return { [ADMIN_COOKIE]: response.cookies.find((cookie) => cookie.name === ADMIN_COOKIE)!.value };
    };
    const master = await login(MASTER.email, MASTER.password);
    // Admins are made as the console makes them: by the master admin, through admin's own routes.
    const adminWith = async (permissions: readonly Permission[]) => {
      const email = `${randomUUID()}@crewswap.test`;
      const created = await admin.app.inject({ method: 'POST', url: '/api/admin/admins', cookies: master, payload: { email, name: 'Matrix Admin', permissions } });
      expect(created.statusCode).toBe(201);
      const password = { password: 'matrix-admin-1', confirmPassword: 'matrix-admin-1' };
      const set = await admin.app.inject({ method: 'POST', url: `/api/admin/admins/${created.json().id}/set-password`, cookies: master, payload: password });
      expect(set.statusCode).toBe(200);
      return login(email, password.password);
    };
    const cookieFor = new Map<string, Record<string, string>>();
    const adminHolding = async (permissions: readonly Permission[]) => {
      const name = [...permissions].sort().join(',');
      if (!cookieFor.has(name)) cookieFor.set(name, await adminWith(permissions));
      return cookieFor.get(name)!;
    };
    const pilot = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() }) };

    const failures: string[] = [];
    const routes = adminRoutes();
    // Shutdown before resume, so the system is running again at the end.
    routes.sort((a, b) => Number(a.url.endsWith('resume-operations')) - Number(b.url.endsWith('resume-operations')));
    for (const route of routes) {
      const rule = ADMIN_ROUTE_PERMISSIONS[route.key]!;
      const grants = granting(rule);
      // Ids that exist nowhere: a route that lets the caller through answers 404 or 400, never 401/403.
      const url = route.url.replace(':key', SETTING_KEY).replace(/:\w+/g, () => randomUUID());
      const mutating = route.method !== 'GET';
      const call = (cookies: Record<string, string>) =>
        route.service.app.inject({ method: route.method as 'GET', url, cookies, ...(mutating ? { payload: {} } : {}) }).then((response) => response.statusCode);
      const expectStatus = (who: string, status: number, expected: (status: number) => boolean) => {
        if (!expected(status)) failures.push(`${route.key} (${route.service.name}) as ${who}: ${status}`);
      };
      const refused = (code: number) => (status: number) => status === code;
      const through = (status: number) => status !== 401 && status !== 403 && status < 500;

      expectStatus('no session', await call({}), refused(401));
      expectStatus('a pilot session', await call(pilot), refused(401));
      const without = grants === 'master' ? [...PERMISSIONS] : PERMISSIONS.filter((permission) => !grants.includes(permission));
      expectStatus(`an admin with ${without.join(',') || 'no permission'}`, await call(await adminHolding(without)), grants === 'master' || grants.length > 0 ? refused(403) : through);
      for (const permission of grants === 'master' ? [] : grants) {
        expectStatus(`an admin with ${permission}`, await call(await adminHolding([permission])), through);
      }
      expectStatus('a master admin', await call(master), through);
    }
    expect(failures).toEqual([]);
    expect(routes.length).toBe(Object.keys(ADMIN_ROUTE_PERMISSIONS).length);
  });
});
