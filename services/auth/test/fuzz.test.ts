import { startAuth, type Harness } from './harness';

let h: Harness;
let pilotCookies: Record<string, string>;
let pilotId: string;
let admin: Record<string, string>;
let otherId: string;
beforeAll(async () => {
  h = await startAuth({ testing_button_enabled: 'true', testing_password: 'fuzz-pass' });
  const me = await h.signedIn();
  pilotCookies = me.cookies;
  pilotId = me.pilot.id;
  otherId = (await h.createPilot()).id;
  admin = h.adminCookies([], true);
});
afterAll(() => h.close());

/** Small seeded generator: the same inputs every run, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const HUGE = 'x'.repeat(100_000);
const BOOLEAN_FIELDS = new Set(['apic', 'ltc', 'usualReq', 'allVisible', 'testData', 'emailVerified']);
const WRONG_TYPES: unknown[] = [12345, -1.5, true, [], {}, [1, 'a'], { nested: { deep: [null] } }, HUGE, '\u0000\u202e💥'];

function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * 9);
  if (depth > 2) return 'leaf';
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() > 0.5;
    case 2:
      return Math.floor(next() * 1e9) - 5e8;
    case 3:
      return HUGE.slice(0, Math.floor(next() * 5000));
    case 4:
      return ["'; DROP TABLE pilots; --", '<script>alert(1)</script>', '%00', '../../etc/passwd', ''][Math.floor(next() * 5)];
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`k${i}`, randomValue(next, depth + 1)]));
  }
}

type Route = { method: 'POST' | 'PATCH'; name?: string; url: () => string; fields: string[]; cookies?: () => Record<string, string> };
const ROUTES: Route[] = [
  {
    method: 'POST',
    url: () => '/api/auth/register',
    fields: ['firstName', 'lastName', 'employeeId', 'phone', 'emailPrefix', 'email', 'rank', 'fleet', 'base', 'apic', 'ltc', 'usualReq', 'password', 'confirmPassword'],
  },
  { method: 'POST', url: () => '/api/auth/verify-email', fields: ['email', 'code'] },
  { method: 'POST', url: () => '/api/auth/resend-verification', fields: ['email'] },
  { method: 'POST', url: () => '/api/auth/login', fields: ['email', 'password'] },
  { method: 'POST', url: () => '/api/auth/test-login', fields: ['email', 'password'] },
  { method: 'POST', url: () => '/api/auth/forgot-password', fields: ['email'] },
  { method: 'POST', url: () => '/api/auth/force-password-change', fields: ['newPassword', 'confirmPassword'], cookies: () => pilotCookies },
  { method: 'POST', url: () => '/api/restore-pilot', fields: ['employeeId', 'updatedData'] },
  {
    method: 'PATCH',
    name: '/api/pilots/:id',
    url: () => `/api/pilots/${pilotId}`,
    fields: ['employeeId', 'firstName', 'lastName', 'phone', 'rank', 'fleet', 'base', 'apic', 'ltc', 'usualReq', 'allVisible', 'searchDayRange'],
    cookies: () => pilotCookies,
  },
  { method: 'PATCH', name: '/api/pilots/:id/password', url: () => `/api/pilots/${pilotId}/password`, fields: ['currentPassword', 'newPassword'], cookies: () => pilotCookies },
  {
    method: 'PATCH',
    name: '/api/admin/pilots/:id',
    url: () => `/api/admin/pilots/${otherId}`,
    fields: ['employeeId', 'firstName', 'lastName', 'email', 'phone', 'rank', 'fleet', 'base', 'apic', 'ltc', 'usualReq', 'allVisible', 'testData', 'emailVerified', 'searchDayRange'],
    cookies: () => admin,
  },
  { method: 'PATCH', name: '/api/admin/pilots/:id/password', url: () => `/api/admin/pilots/${otherId}/password`, fields: ['password', 'confirmPassword'], cookies: () => admin },
];

describe('Fuzzed bodies get 400 with a message, never 500', () => {
  it.each(ROUTES.map((route) => [`${route.method} ${route.name ?? route.url()}`, route] as const))(
    '%s: a wrong type in any field is 400',
    async (_name, route) => {
      for (const field of route.fields) {
        for (const value of WRONG_TYPES) {
          // null is a valid "use the setting" for searchDayRange, and true a valid flag.
          if ((field === 'searchDayRange' && value === null) || (BOOLEAN_FIELDS.has(field) && typeof value === 'boolean')) continue;
          const response = await h.app.inject({ method: route.method, url: route.url(), cookies: route.cookies?.() ?? {}, payload: { [field]: value } });
          expect([field, JSON.stringify(value)?.slice(0, 20), response.statusCode]).toEqual([field, JSON.stringify(value)?.slice(0, 20), 400]);
          expect(typeof response.json().error).toBe('string');
        }
      }
    },
  );

  it.each(ROUTES.map((route) => [`${route.method} ${route.name ?? route.url()}`, route] as const))(
    '%s: unknown fields, non-object bodies and random bodies are refused without a 500',
    async (_name, route) => {
      const cookies = route.cookies?.() ?? {};
      const unknown = await h.app.inject({ method: route.method, url: route.url(), cookies, payload: { isAdmin: true } });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().fields._).toBe('Unknown field(s): isAdmin');
      for (const payload of ['"just a string"', '42', 'null', '[1,2]', '{not json']) {
        const response = await h.app.inject({ method: route.method, url: route.url(), cookies, headers: { 'content-type': 'application/json' }, payload });
        expect([payload, response.statusCode]).toEqual([payload, 400]);
      }
      const next = random(route.fields.length * 7919);
      for (let i = 0; i < 40; i++) {
        const body = Object.fromEntries(route.fields.filter(() => next() > 0.4).map((field) => [field, randomValue(next)]));
        const response = await h.app.inject({ method: route.method, url: route.url(), cookies, payload: body });
        expect([JSON.stringify(body).slice(0, 200), response.statusCode < 500]).toEqual([JSON.stringify(body).slice(0, 200), true]);
      }
    },
  );

  it('a body over the size limit is 413 with a JSON error, as the gateway answers it', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a', password: 'b'.repeat(2_000_000) } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Request body too large' });
  });

  it('bad params and queries are 400', async () => {
    const params = ['/api/check-deleted-pilot/' + '1'.repeat(50), `/api/admin/pilots?fleet=B747`, '/api/admin/pilots?unknown=1', `/api/admin/pilots?search=${'a'.repeat(200)}`, '/api/admin/pilots?rank=CP&rank=FO', '/api/admin/pilots?search=%00', '/api/check-deleted-pilot/12%0034'];
    for (const url of params) {
      const response = await h.app.inject({ method: 'GET', url, cookies: admin });
      expect([url, response.statusCode]).toEqual([url, 400]);
    }
    const badId = await h.app.inject({ method: 'PATCH', url: "/api/pilots/1' OR '1'='1", cookies: pilotCookies, payload: {} });
    expect(badId.statusCode).toBe(400);
    const badAdminId = await h.app.inject({ method: 'DELETE', url: '/api/admin/pilots/not-a-uuid', cookies: admin });
    expect(badAdminId.statusCode).toBe(400);
  });
});
