import { PILOT_COOKIE } from '@crewswap/kit';
import { PHONE_PLUS_ZERO_MESSAGE, SUBJECTS } from '@crewswap/proto';
import { START, startAuth, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.close());
beforeEach(() => h.clock.set(START));

type Signed = Awaited<ReturnType<Harness['signedIn']>>;
const patch = (who: Signed, payload: object) => h.app.inject({ method: 'PATCH', url: `/api/pilots/${who.pilot.id}`, cookies: who.cookies, payload });
const cooldown = (who: Signed) => h.app.inject({ method: 'GET', url: `/api/pilots/${who.pilot.id}/check-master-roster-cooldown`, cookies: who.cookies });
const DAY = 86_400_000;

describe('Edit My Details', () => {
  it('shapes the phone; +0 is refused with the Invalid Phone Number message', async () => {
    const me = await h.signedIn();
    expect((await patch(me, { phone: '+44 (7700) 900-999' })).json().phone).toBe('+447700900999');
    const refused = await patch(me, { phone: '+0 7700' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ title: 'Invalid Phone Number', error: PHONE_PLUS_ZERO_MESSAGE });
  });

  it('first and last name are required and shaped', async () => {
    const me = await h.signedIn();
    expect((await patch(me, { firstName: '  jean-luc ', lastName: 'PICARD' })).json()).toMatchObject({ firstName: 'Jean-Luc', lastName: 'Picard' });
    for (const names of [{ firstName: '' }, { lastName: ' 42 ' }]) {
      const refused = await patch(me, names);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().title).toBe('Missing Information');
    }
  });

  it('CP is always APIC; only CP may be LTC; an FO may set APIC', async () => {
    const fo = await h.signedIn({ rank: 'FO', apic: false });
    expect((await patch(fo, { apic: true })).json().apic).toBe(true);
    expect((await patch(fo, { apic: false })).json().apic).toBe(false);
    const refused = await patch(fo, { ltc: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Only captains (CP) can be LTC trainers.');
    const cp = await h.signedIn({ rank: 'CP' });
    expect((await patch(cp, { apic: false })).json().apic).toBe(true);
    expect((await patch(cp, { ltc: true })).json().ltc).toBe(true);
  });

  it('the employee ID cannot be changed by the pilot', async () => {
    const me = await h.signedIn();
    expect((await patch(me, { employeeId: me.pilot.employeeId, base: 'MAN' })).statusCode).toBe(200);
    expect((await patch(me, { employeeId: '999999' })).statusCode).toBe(400);
  });

  it('searchDayRange is 0-30 or null', async () => {
    const me = await h.signedIn();
    expect((await patch(me, { searchDayRange: 0 })).json().searchDayRange).toBe(0);
    expect((await patch(me, { searchDayRange: 30 })).json().searchDayRange).toBe(30);
    expect((await patch(me, { searchDayRange: null })).json().searchDayRange).toBeNull();
    expect((await patch(me, { searchDayRange: 31 })).statusCode).toBe(400);
    expect((await patch(me, { searchDayRange: -1 })).statusCode).toBe(400);
    expect((await patch(me, { searchDayRange: 2.5 })).statusCode).toBe(400);
  });

  it('every change publishes auth.pilot.updated with the whole profile; no change publishes nothing', async () => {
    const me = await h.signedIn();
    const updated = (await patch(me, { base: 'MAN' })).json();
    const count = async () => (await h.events(SUBJECTS.pilotUpdated)).filter((event) => (event.data.pilot as { id: string }).id === me.pilot.id).length;
    const events = (await h.events(SUBJECTS.pilotUpdated)).filter((event) => (event.data.pilot as { id: string }).id === me.pilot.id);
    expect(events.at(-1)?.data.pilot).toEqual(updated);
    const before = await count();
    await patch(me, { base: 'MAN' });
    expect(await count()).toBe(before);
  });
});

describe('Rank, fleet and LTC changes are locked for one year', () => {
  it('a rank change is locked until the same date next year', async () => {
    const me = await h.signedIn({ rank: 'FO', apic: false });
    const changed = (await patch(me, { rank: 'CP' })).json();
    expect(changed).toMatchObject({ rank: 'CP', apic: true, rankLastChanged: '2026-11-01' });
    h.clock.advance(364 * DAY);
    const locked = await patch(me, { rank: 'FO' });
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({ unlocksOn: '2027-11-01', title: 'Update Failed' });
    expect(locked.json().error).toContain('2027-11-01');
    h.clock.advance(DAY);
    expect((await patch(me, { rank: 'FO' })).json()).toMatchObject({ rank: 'FO', rankLastChanged: '2027-11-01' });
  });

  it('a fleet change is locked for a year', async () => {
    const me = await h.signedIn({ fleet: 'A330' });
    expect((await patch(me, { fleet: 'B787' })).json()).toMatchObject({ fleet: 'B787', fleetLastChanged: '2026-11-01' });
    h.clock.advance(100 * DAY);
    expect((await patch(me, { fleet: 'A350' })).statusCode).toBe(403);
    // Sending the same fleet is not a change.
    expect((await patch(me, { fleet: 'B787', base: 'MAN' })).statusCode).toBe(200);
  });

  it('an LTC change is locked for a year', async () => {
    const me = await h.signedIn({ rank: 'CP', ltc: false });
    expect((await patch(me, { ltc: true })).json()).toMatchObject({ ltc: true, ltcLastChanged: '2026-11-01' });
    h.clock.advance(30 * DAY);
    const locked = await patch(me, { ltc: false });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().unlocksOn).toBe('2027-11-01');
  });

  it('a captain who becomes FO stops being LTC', async () => {
    const me = await h.signedIn({ rank: 'CP', ltc: true });
    expect((await patch(me, { rank: 'FO', apic: true })).json()).toMatchObject({ rank: 'FO', ltc: false, apic: true });
  });
});

describe('Master Roster 30-day cooldown', () => {
  it('turning it off starts a 30-day cooldown before it can be turned on', async () => {
    const me = await h.signedIn({ usualReq: true });
    expect((await cooldown(me)).json()).toEqual({ canEnable: true, daysRemaining: 0 });
    expect((await patch(me, { usualReq: false })).json()).toMatchObject({ usualReq: false, usualReqOff: '2026-11-01' });
    h.clock.advance(10 * DAY);
    expect((await cooldown(me)).json()).toEqual({ canEnable: false, daysRemaining: 20 });
    const refused = await patch(me, { usualReq: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ title: 'Cooldown Active', daysRemaining: 20 });
    expect(refused.json().error).toMatch(/^You have 20 days remaining/);
    h.clock.advance(20 * DAY);
    expect((await cooldown(me)).json()).toEqual({ canEnable: true, daysRemaining: 0 });
    expect((await patch(me, { usualReq: true })).json()).toMatchObject({ usualReq: true, usualReqOff: null });
  });
});

describe('Change Password', () => {
  it("wrong current password: 400 'Password Change Failed'; new one min 6", async () => {
    const me = await h.signedIn();
    const change = (payload: object) => h.app.inject({ method: 'PATCH', url: `/api/pilots/${me.pilot.id}/password`, cookies: me.cookies, payload });
    const wrong = await change({ currentPassword: 'not-it', newPassword: 'another1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().title).toBe('Password Change Failed');
    const short = await change({ currentPassword: me.pilot.password, newPassword: '12345' });
    expect(short.json()).toMatchObject({ title: 'Password Too Short', error: 'Password must be at least 6 characters long.' });
    expect((await change({ currentPassword: me.pilot.password, newPassword: 'another1' })).statusCode).toBe(200);
    expect((await h.login(me.pilot.email, 'another1')).response.statusCode).toBe(200);
  });
});

describe('Profile deletion, the 30-day cooling-off and restore', () => {
  it('deleting ends the session, publishes auth.pilot.deleted and keeps the details for 30 days', async () => {
    const me = await h.signedIn({ rank: 'FO', apic: false, fleet: 'A330' });
    await patch(me, { fleet: 'SFF' }); // a change lock that a restore must keep
    const response = await h.app.inject({ method: 'DELETE', url: `/api/pilots/${me.pilot.id}`, cookies: me.cookies });
    expect(response.statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: me.cookies })).statusCode).toBe(401);
    expect((await h.events(SUBJECTS.pilotDeleted)).map((event) => event.data)).toContainEqual({ pilotId: me.pilot.id, employeeId: me.pilot.employeeId });

    h.clock.advance(10 * DAY);
    const lookup = await h.app.inject({ method: 'GET', url: `/api/check-deleted-pilot/${me.pilot.employeeId}` });
    expect(lookup.json()).toEqual({
      exists: true,
      pilot: { firstName: 'Amy', lastName: 'Stone', employeeId: me.pilot.employeeId, email: me.pilot.email, rank: 'FO', fleet: 'SFF', daysRemaining: 20 },
    });

    h.settings.email_verification_enabled = 'true';
    try {
      const restore = await h.app.inject({
        method: 'POST',
        url: '/api/restore-pilot',
        payload: { employeeId: me.pilot.employeeId, updatedData: { password: 'restored1', emailVerified: false } },
      });
      expect(restore.statusCode).toBe(200);
      expect(restore.json().pilot).toMatchObject({ id: me.pilot.id, rank: 'FO', fleet: 'SFF', fleetLastChanged: '2026-11-01', emailVerified: false });
      expect((await h.login(me.pilot.email, 'restored1')).response.json().emailVerificationRequired).toBe(true);
      const code = await h.verificationCode(me.pilot.email);
      await h.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email: me.pilot.email, code } });
      const again = await h.login(me.pilot.email, 'restored1');
      expect(again.response.statusCode).toBe(200);
      const registered = await h.events(SUBJECTS.pilotRegistered);
      expect(registered.filter((event) => (event.data.pilot as { id: string }).id === me.pilot.id)).toHaveLength(2);
      // The fleet lock came back with the profile.
      expect((await h.app.inject({ method: 'PATCH', url: `/api/pilots/${me.pilot.id}`, cookies: { [PILOT_COOKIE]: again.cookie! }, payload: { fleet: 'A330' } })).statusCode).toBe(403);
      expect((await h.app.inject({ method: 'GET', url: `/api/check-deleted-pilot/${me.pilot.employeeId}` })).json()).toEqual({ exists: false });
    } finally {
      h.settings.email_verification_enabled = 'false';
    }
  });

  it('after 30 days there is nothing to restore', async () => {
    const me = await h.signedIn();
    await h.app.inject({ method: 'DELETE', url: `/api/pilots/${me.pilot.id}`, cookies: me.cookies });
    h.clock.advance(30 * DAY);
    expect((await h.app.inject({ method: 'GET', url: `/api/check-deleted-pilot/${me.pilot.employeeId}` })).json()).toEqual({ exists: false });
    const restore = await h.app.inject({
      method: 'POST',
      url: '/api/restore-pilot',
      payload: { employeeId: me.pilot.employeeId, updatedData: { password: 'restored1', emailVerified: false } },
    });
    expect(restore.statusCode).toBe(404);
    expect(restore.json().title).toBe('Restore Failed');
  });

  it('an unknown or malformed employee ID is not found', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/check-deleted-pilot/000001' })).json()).toEqual({ exists: false });
    expect((await h.app.inject({ method: 'GET', url: '/api/check-deleted-pilot/abc' })).json()).toEqual({ exists: false });
  });
});
