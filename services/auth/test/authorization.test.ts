import { randomUUID } from 'node:crypto';
import { PERMISSIONS } from '@crewswap/proto';
import { startAuth, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.close());

type Method = 'GET' | 'PATCH' | 'DELETE' | 'POST';

describe('A pilot can never read or change another pilot through the API', () => {
  it('every pilot route with another pilot id is 404 and changes nothing', async () => {
    const me = await h.signedIn();
    const other = await h.signedIn();
    const routes: [Method, string, object?][] = [
      ['PATCH', `/api/pilots/${other.pilot.id}`, { base: 'MAN', firstName: 'Hacked' }],
      ['GET', `/api/pilots/${other.pilot.id}/check-master-roster-cooldown`],
      ['PATCH', `/api/pilots/${other.pilot.id}/password`, { currentPassword: other.pilot.password, newPassword: 'hijacked' }],
      ['DELETE', `/api/pilots/${other.pilot.id}`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await h.app.inject({ method, url, cookies: me.cookies, ...(payload ? { payload } : {}) });
      expect([method, url, response.statusCode]).toEqual([method, url, 404]);
    }
    const stillThere = await h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: other.cookies });
    expect(stillThere.json()).toMatchObject({ id: other.pilot.id, firstName: 'Amy', base: 'LHR' });
    expect((await h.login(other.pilot.email, other.pilot.password)).response.statusCode).toBe(200);
  });

  it('every pilot route without a session is 401', async () => {
    const id = randomUUID();
    const routes: [Method, string][] = [
      ['GET', '/api/pilot/current'],
      ['PATCH', `/api/pilots/${id}`],
      ['GET', `/api/pilots/${id}/check-master-roster-cooldown`],
      ['PATCH', `/api/pilots/${id}/password`],
      ['DELETE', `/api/pilots/${id}`],
      ['POST', '/api/auth/force-password-change'],
    ];
    for (const [method, url] of routes) {
      const response = await h.app.inject({ method, url, payload: {} });
      expect([method, url, response.statusCode]).toEqual([method, url, 401]);
    }
  });
});

describe('Admin routes need an admin session with the right permission', () => {
  const id = randomUUID();
  const routes: { method: Method; url: string; payload?: object; allowed: string[] }[] = [
    { method: 'GET', url: '/api/admin/pilots', allowed: ['manage_pilots'] },
    { method: 'PATCH', url: `/api/admin/pilots/${id}`, payload: { base: 'MAN' }, allowed: ['manage_pilots'] },
    { method: 'DELETE', url: `/api/admin/pilots/${id}`, allowed: ['manage_pilots'] },
    { method: 'PATCH', url: `/api/admin/pilots/${id}/password`, payload: { password: 'abcdef' }, allowed: ['manage_pilots'] },
    { method: 'GET', url: '/api/admin/sessions/active', allowed: ['manage_pilots', 'view_analytics'] },
    { method: 'GET', url: '/api/admin/sessions/history', allowed: ['manage_pilots', 'view_analytics'] },
    { method: 'GET', url: '/api/admin/recent-registrations', allowed: ['manage_pilots', 'view_analytics'] },
    { method: 'GET', url: '/api/admin/cleanup/deleted-pilots', allowed: ['manage_system'] },
    { method: 'DELETE', url: `/api/admin/cleanup/deleted-pilots/${id}`, allowed: ['manage_system'] },
  ];

  it('no session: 401', async () => {
    for (const { method, url, payload } of routes) {
      const response = await h.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect([method, url, response.statusCode]).toEqual([method, url, 401]);
    }
  });

  it('a pilot session is not an admin session: 401', async () => {
    const me = await h.signedIn();
    for (const { method, url, payload } of routes) {
      const response = await h.app.inject({ method, url, cookies: me.cookies, ...(payload ? { payload } : {}) });
      expect([method, url, response.statusCode]).toEqual([method, url, 401]);
    }
  });

  it('an admin lacking the permission: 403; holding it (or master): allowed', async () => {
    for (const { method, url, payload, allowed } of routes) {
      const lacking = PERMISSIONS.filter((permission) => !allowed.includes(permission));
      const refused = await h.app.inject({ method, url, cookies: h.adminCookies([...lacking]), ...(payload ? { payload } : {}) });
      expect([method, url, refused.statusCode]).toEqual([method, url, 403]);
      for (const cookies of [...allowed.map((permission) => h.adminCookies([permission as (typeof PERMISSIONS)[number]])), h.adminCookies([], true)]) {
        const response = await h.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
        // The id is unknown, so item routes answer 404 once let in; lists answer 200.
        expect([method, url, [200, 404]]).toEqual([method, url, expect.arrayContaining([response.statusCode])]);
      }
    }
  });
});
