import { PILOT_COOKIE, requestRpc } from '@crewswap/kit';
import { RPC, SUBJECTS, SystemStateReply } from '@crewswap/proto';
import { startAuth, type Harness } from './harness';
import { SHUTDOWN_MESSAGE } from '../src/domain/login';

let h: Harness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.close());

const current = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: { [PILOT_COOKIE]: cookie } });

describe('Login', () => {
  it('answers the pilot and forcePasswordChange false, and sets the session cookie', async () => {
    const pilot = await h.createPilot();
    const { response, cookie } = await h.login(` ${pilot.email.toUpperCase()} `, pilot.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ pilot: expect.objectContaining({ id: pilot.id, email: pilot.email }), forcePasswordChange: false });
    const set = response.cookies.find((c) => c.name === PILOT_COOKIE)!;
    expect(set).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect((await current(cookie!)).json().id).toBe(pilot.id);
  });

  it("a wrong email is 'Invalid email or password.' like a wrong password", async () => {
    const pilot = await h.createPilot();
    const unknown = await h.login('nobody@fly.virgin.com', 'secret1');
    const wrong = await h.login(pilot.email, 'wrong-password');
    expect(unknown.response.statusCode).toBe(401);
    expect(wrong.response.statusCode).toBe(401);
    expect(unknown.response.json()).toEqual({ error: 'Invalid email or password.', remainingAttempts: 4 });
    expect(wrong.response.json()).toEqual({ error: 'Invalid email or password.', remainingAttempts: 4 });
    expect(unknown.cookie).toBeUndefined();
  });

  it('GET /api/pilot/current is 401 without a session', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/pilot/current' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Session expired' });
  });
});

describe('Failed logins: 5, then password reset', () => {
  it('counts down, warns at 1 remaining, resets the password on the 5th and forces a change at the next login', async () => {
    const pilot = await h.createPilot();
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { response } = await h.login(pilot.email, `wrong${i}`);
      expect(response.json().error).toBe('Invalid email or password.');
      remaining.push(response.json().remainingAttempts);
    }
    const fourth = (await h.login(pilot.email, 'wrong3')).response;
    expect(fourth.statusCode).toBe(401);
    expect(fourth.json().remainingAttempts).toBe(1);
    expect(fourth.json().error).toMatch(/one more failed attempt will reset your password/i);
    expect(remaining).toEqual([4, 3, 2]);

    const fifth = (await h.login(pilot.email, 'wrong4')).response;
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json()).toMatchObject({ passwordReset: true, title: 'Password Reset' });

    // The old password no longer works; the mailed temporary one does, with a forced change.
    expect((await h.login(pilot.email, pilot.password)).response.json().remainingAttempts).toBe(4);
    const temporary = await h.temporaryPassword(pilot.email);
    const { response, cookie } = await h.login(pilot.email, temporary);
    expect(response.statusCode).toBe(200);
    expect(response.json().forcePasswordChange).toBe(true);

    // Until the change is done every other pilot route is refused with a clear message.
    const blocked = await current(cookie!);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ error: 'You must change your password before continuing.', forcePasswordChange: true });
    const patch = await h.app.inject({ method: 'PATCH', url: `/api/pilots/${pilot.id}`, cookies: { [PILOT_COOKIE]: cookie! }, payload: { base: 'MAN' } });
    expect(patch.statusCode).toBe(403);

    const change = (payload: object) =>
      h.app.inject({ method: 'POST', url: '/api/auth/force-password-change', cookies: { [PILOT_COOKIE]: cookie! }, payload });
    expect((await change({ newPassword: '', confirmPassword: '' })).json()).toMatchObject({ title: 'All Fields Required' });
    expect((await change({ newPassword: 'abc', confirmPassword: 'abc' })).json()).toMatchObject({ title: 'Password Too Short', error: 'Password must be at least 6 characters long.' });
    expect((await change({ newPassword: 'abcdef', confirmPassword: 'abcdeg' })).json()).toMatchObject({ title: "Passwords Don't Match" });
    const done = await change({ newPassword: 'brand-new', confirmPassword: 'brand-new' });
    expect(done.statusCode).toBe(200);
    expect(done.json().forcePasswordChange).toBe(false);
    // The same session goes on, under a re-issued cookie.
    const reissued = done.cookies.find((c) => c.name === PILOT_COOKIE)!.value;
    expect((await current(reissued)).statusCode).toBe(200);
    expect((await h.login(pilot.email, 'brand-new')).response.json().forcePasswordChange).toBe(false);
  });

  it('a successful login starts the count again', async () => {
    const pilot = await h.createPilot();
    for (let i = 0; i < 4; i++) await h.login(pilot.email, 'nope');
    expect((await h.login(pilot.email, pilot.password)).response.statusCode).toBe(200);
    expect((await h.login(pilot.email, 'nope')).response.json().remainingAttempts).toBe(4);
  });

  it('the reset ends the open session', async () => {
    const { pilot, cookie } = await h.signedIn();
    for (let i = 0; i < 5; i++) await h.login(pilot.email, 'nope');
    expect((await current(cookie)).statusCode).toBe(401);
  });

  it('an unknown email answers the same way and no mail is sent', async () => {
    const email = 'ghost.pilot@fly.virgin.com';
    let last;
    for (let i = 0; i < 5; i++) last = (await h.login(email, 'nope')).response;
    expect(last!.json()).toMatchObject({ passwordReset: true });
    expect(await h.mails(email)).toEqual([]);
  });

  it('5 more failures within the hour of a reset lock the account (accountLocked, 423) without another mail', async () => {
    const pilot = await h.createPilot();
    for (let i = 0; i < 5; i++) await h.login(pilot.email, 'nope');
    const mailsAfterReset = (await h.mails(pilot.email)).length;
    let last;
    for (let i = 0; i < 5; i++) last = (await h.login(pilot.email, 'nope')).response;
    expect(last!.statusCode).toBe(423);
    expect(last!.json()).toMatchObject({ accountLocked: true, title: 'Account Locked' });
    const temporary = await h.temporaryPassword(pilot.email);
    const whileLocked = (await h.login(pilot.email, temporary)).response;
    expect(whileLocked.statusCode).toBe(423);
    expect((await h.mails(pilot.email)).length).toBe(mailsAfterReset);
    h.clock.advance(61 * 60_000);
    expect((await h.login(pilot.email, temporary)).response.json().forcePasswordChange).toBe(true);
  });
});

describe('Email verification', () => {
  beforeAll(() => {
    h.settings.email_verification_enabled = 'true';
  });
  afterAll(() => {
    h.settings.email_verification_enabled = 'false';
  });

  it('an unverified pilot with the right password gets emailVerificationRequired (403) and no session', async () => {
    const pilot = await h.createPilot();
    const { response, cookie } = await h.login(pilot.email, pilot.password);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ emailVerificationRequired: true, title: 'VS Pilot Verification Required' });
    expect(cookie).toBeUndefined();
  });

  it('verify-email accepts the mailed code, then login works', async () => {
    const pilot = await h.createPilot();
    const code = await h.verificationCode(pilot.email);
    const verify = await h.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email: pilot.email, code: ` ${code.slice(0, 4)} ${code.slice(4)} ` } });
    expect(verify.statusCode).toBe(200);
    expect((await h.login(pilot.email, pilot.password)).response.statusCode).toBe(200);
    const updated = await h.events(SUBJECTS.pilotUpdated);
    expect(updated.map((event) => event.data.pilot)).toContainEqual(expect.objectContaining({ id: pilot.id, emailVerified: true }));
  });

  it('verify-email accepts the daily access code when it is set', async () => {
    const pilot = await h.createPilot();
    const verify = () => h.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email: pilot.email, code: '482913' } });
    expect((await verify()).statusCode).toBe(400);
    h.settings.daily_access_code = '482913';
    try {
      expect((await verify()).statusCode).toBe(200);
    } finally {
      h.settings.daily_access_code = '';
    }
  });

  it("a wrong code is 400 'Verification Failed'; more than 5 wrong in 15 minutes is 429 'Too Many Attempts'", async () => {
    const pilot = await h.createPilot();
    const code = await h.verificationCode(pilot.email);
    const attempt = (c: string) => h.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email: pilot.email, code: c } });
    for (let i = 0; i < 5; i++) {
      const wrong = await attempt('00000000');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().title).toBe('Verification Failed');
    }
    const limited = await attempt(code);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().title).toBe('Too Many Attempts');
    h.clock.advance(15 * 60_000 + 1000);
    expect((await attempt(code)).statusCode).toBe(200);
  });

  it('a code shorter than 6 characters is refused', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email: 'a@fly.virgin.com', code: '12 34' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Please enter the verification code from your email');
  });

  it('resend-verification answers the same whether or not the email is registered, and mails a new code', async () => {
    const pilot = await h.createPilot();
    h.clock.advance(2 * 60_000);
    const resend = (email: string) => h.app.inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email } });
    const registered = await resend(pilot.email);
    const stranger = await resend('stranger@fly.virgin.com');
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toEqual(stranger.json());
    expect((await h.mails(pilot.email)).length).toBe(2);
  });

  it('resend right after registering sends nothing and answers 429 with the seconds to wait; once they pass, a new code is sent', async () => {
    const pilot = await h.createPilot();
    const resend = () => h.app.inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: pilot.email } });
    h.clock.advance(15_000);
    const tooSoon = await resend();
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toEqual({
      error: 'A verification code was sent less than a minute ago. Please wait 45 seconds before asking for another.',
      title: 'Please Wait',
      retryAfterSeconds: 45,
    });
    expect(tooSoon.headers['retry-after']).toBe('45');
    expect((await h.mails(pilot.email)).length).toBe(1);

    h.clock.advance(45_000);
    const sent = await resend();
    expect(sent.statusCode).toBe(200);
    expect((await h.mails(pilot.email)).length).toBe(2);
    // The minute starts again from the code just sent.
    expect((await resend()).json().retryAfterSeconds).toBe(60);
  });
});

describe('Forgot password', () => {
  it('always the same answer; a registered pilot gets a temporary password, a forced change, and old sessions end', async () => {
    const { pilot, cookie } = await h.signedIn();
    const forgot = (email: string) => h.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    const known = await forgot(pilot.email);
    const unknown = await forgot('nobody.here@fly.virgin.com');
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe(
      'If you are registered, a new password will be sent to your registered email address. You can log in with it and will then be prompted to change it.',
    );
    expect((await current(cookie)).statusCode).toBe(401);
    const temporary = await h.temporaryPassword(pilot.email);
    expect((await h.login(pilot.email, temporary)).response.json().forcePasswordChange).toBe(true);
  });

  it("an empty email is 'Please enter your email address first.'", async () => {
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Please enter your email address first.');
  });
});

describe('Emergency shutdown', () => {
  const setState = (shutdown: boolean) => requestRpc(h.runtime.bus, RPC.setSystemState, { shutdown, reason: shutdown ? 'test' : null }, SystemStateReply);

  it('ends every pilot session at once, answers how many, and refuses pilot logins until operations resume', async () => {
    const first = await h.signedIn();
    const second = await h.signedIn();
    const { sessionsTerminated } = await setState(true);
    expect(sessionsTerminated).toBeGreaterThanOrEqual(2);
    // The 401 says why, so the app shows 'System Temporarily Unavailable', not 'Session Expired'.
    for (const { cookie } of [first, second]) {
      const ended = await current(cookie);
      expect(ended.statusCode).toBe(401);
      expect(ended.json()).toEqual({ error: 'Session expired', sessionEnded: 'admin_shutdown' });
    }
    const refused = (await h.login(first.pilot.email, first.pilot.password)).response;
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ systemShutdown: true, title: 'System Temporarily Unavailable' });
    const revoked = await h.events(SUBJECTS.sessionRevoked);
    expect(revoked.filter((event) => event.data.reason === 'admin_shutdown').map((event) => event.data.pilotId)).toEqual(
      expect.arrayContaining([first.pilot.id, second.pilot.id]),
    );
    expect(await setState(true)).toEqual({ sessionsTerminated: 0 });
    // No new pilot gets in either: registration answers the shutdown message too.
    const registering = await h.register();
    expect(registering.statusCode).toBe(503);
    expect(registering.json()).toMatchObject({ error: SHUTDOWN_MESSAGE, systemShutdown: true, title: 'System Temporarily Unavailable' });

    expect(await setState(false)).toEqual({ sessionsTerminated: 0 });
    expect((await h.register()).statusCode).toBe(201);
    expect((await h.login(first.pilot.email, first.pilot.password)).response.statusCode).toBe(200);
  });
});
