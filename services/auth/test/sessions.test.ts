import { randomUUID } from 'node:crypto';
import { PILOT_COOKIE, requestRpc, startSessionGuard } from '@crewswap/kit';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { SessionIssuedReply, sessionIssuedSubject, SUBJECTS } from '@crewswap/proto';
import { startAuth, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startAuth({ session_timeout_minutes: '30' });
});
afterAll(() => h.close());

const current = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: { [PILOT_COOKIE]: cookie } });
const sessionIdOf = (cookie: string): string => JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()).sid;

describe('One session per pilot', () => {
  it('a new login ends the older session (logged_in_elsewhere); every other service refuses the old cookie once the revocation arrives', async () => {
    // Another service's guard, as trips or swaps run it: it only hears the revocation event.
    const otherService = await startSessionGuard({ publicKey: TEST_KEYS.publicKey, bus: h.runtime.bus, log: h.runtime.log });
    try {
      const { pilot, cookie: oldCookie } = await h.signedIn();
      const request = { cookies: { [PILOT_COOKIE]: oldCookie } } as unknown as Parameters<typeof otherService.pilot>[0];
      expect((await otherService.pilot(request)).pilotId).toBe(pilot.id);

      const { cookie: newCookie } = await h.login(pilot.email, pilot.password);
      expect((await current(oldCookie)).statusCode).toBe(401);
      expect((await current(newCookie!)).statusCode).toBe(200);
      await eventually(async () => {
        try {
          await otherService.pilot(request);
          return false;
        } catch {
          return true;
        }
        // How fast is a figure, not a test assertion: on a loaded machine the event takes longer than the usual few ms.
      }, 10_000);

      const revoked = await h.events(SUBJECTS.sessionRevoked);
      expect(revoked.map((event) => event.data)).toContainEqual({ sessionId: sessionIdOf(oldCookie), pilotId: pilot.id, reason: 'logged_in_elsewhere' });
    } finally {
      await otherService.stop();
    }
  });

  it('logging in 20 times at once still leaves one open session', async () => {
    const { pilot } = await h.signedIn();
    const logins = await Promise.all(Array.from({ length: 20 }, () => h.login(pilot.email, pilot.password)));
    expect(logins.map((login) => login.response.statusCode)).toEqual(Array(20).fill(200));
    const open = await h.runtime.db('sessions').where({ pilot_id: pilot.id }).whereNull('logout_at').count({ n: '*' }).first();
    expect(Number(open?.n)).toBe(1);
  });

  it('records login time, last activity and logout time', async () => {
    const { cookie } = await h.signedIn();
    const sessionId = sessionIdOf(cookie);
    const row = await h.runtime.db('sessions').where({ id: sessionId }).first();
    expect(row.login_at.toISOString()).toBe(h.clock.now().toISOString());
    expect(row.last_activity_at.toISOString()).toBe(h.clock.now().toISOString());
    expect(row.logout_at).toBeNull();
  });
});

describe('What a guard asks over HTTP while NATS is away (GET /internal/sessions/{id})', () => {
  const ask = (sessionId: string) => h.app.inject({ method: 'GET', url: `/internal/sessions/${sessionId}` });

  it('answers live for an open session, ended with why once it ends, and never-issued for a session auth never issued', async () => {
    const { cookie } = await h.signedIn();
    const sessionId = sessionIdOf(cookie);
    expect((await ask(sessionId)).json()).toEqual({ state: 'live' });
    await h.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [PILOT_COOKIE]: cookie } });
    expect((await ask(sessionId)).json()).toEqual({ state: 'ended', reason: 'logout' });
    expect((await ask(randomUUID())).json()).toEqual({ state: 'never-issued' });
  });

  it('refuses what is not a session id with 400', async () => {
    const response = await ask('not-a-session');
    expect([response.statusCode, response.json().error]).toEqual([400, 'Not a valid id']);
  });
});

describe('Logout', () => {
  it('ends the session and clears the cookie', async () => {
    const { pilot, cookie } = await h.signedIn();
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [PILOT_COOKIE]: cookie } });
    expect(response.statusCode).toBe(200);
    const cleared = response.cookies.find((c) => c.name === PILOT_COOKIE);
    expect(cleared?.value).toBe('');
    expect((await current(cookie)).statusCode).toBe(401);
    const row = await h.runtime.db('sessions').where({ id: sessionIdOf(cookie) }).first();
    expect(row).toMatchObject({ end_reason: 'logout' });
    expect(row.logout_at).not.toBeNull();
    const revoked = await h.events(SUBJECTS.sessionRevoked);
    expect(revoked.map((event) => event.data)).toContainEqual({ sessionId: sessionIdOf(cookie), pilotId: pilot.id, reason: 'logout' });
  });

  it('without a session still answers 200 and clears the cookie', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(200);
  });
});

describe('Inactivity timeout (session_timeout_minutes)', () => {
  it('activity reports keep a session alive; the sweeper ends sessions idle past the timeout (reason timeout)', async () => {
    const idle = await h.signedIn();
    const busy = await h.signedIn();
    h.clock.advance(20 * 60_000);
    // Using the session makes the guard report activity on SESSION_ACTIVITY, as in every service.
    expect((await current(busy.cookie)).statusCode).toBe(200);
    await eventually(async () => {
      const row = await h.runtime.db('sessions').where({ id: sessionIdOf(busy.cookie) }).first();
      return row.last_activity_at.getTime() === h.clock.now().getTime();
    });
    h.clock.advance(15 * 60_000);
    expect(await h.auth.sweepIdleSessions()).toBeGreaterThanOrEqual(1);
    expect((await current(idle.cookie)).statusCode).toBe(401);
    expect((await current(busy.cookie)).statusCode).toBe(200);
    const revoked = await h.events(SUBJECTS.sessionRevoked);
    expect(revoked.map((event) => event.data)).toContainEqual({ sessionId: sessionIdOf(idle.cookie), pilotId: idle.pilot.id, reason: 'timeout' });

    h.settings.session_timeout_minutes = '5';
    h.clock.advance(6 * 60_000);
    await h.auth.sweepIdleSessions();
    expect((await current(busy.cookie)).statusCode).toBe(401);
  });
});

describe('Sessions issued', () => {
  it('a login announces its session (auth.session.started), and auth answers whether it ever issued a session', async () => {
    const { pilot, cookie } = await h.signedIn();
    const sessionId = sessionIdOf(cookie);
    expect((await h.events(SUBJECTS.sessionStarted)).map((event) => event.data)).toContainEqual({ sessionId, pilotId: pilot.id });
    const ask = (id: string) => requestRpc(h.runtime.bus, sessionIssuedSubject('auth'), { sessionId: id }, SessionIssuedReply);
    expect(await ask(sessionId)).toEqual({ issued: true });
    expect(await ask(randomUUID())).toEqual({ issued: false });
    // Still issued once ended: its revocation is what refuses it.
    await h.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [PILOT_COOKIE]: cookie } });
    expect(await ask(sessionId)).toEqual({ issued: true });
  });
});
