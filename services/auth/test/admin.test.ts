import { createServiceApp, PILOT_COOKIE, serveRpc } from '@crewswap/kit';
import { ADMIN_PHONE_PLUS_ZERO_MESSAGE, AdminPilotList, RPC, SUBJECTS, TripCountsRequest } from '@crewswap/proto';
import { START, startAuth, type Harness } from './harness';

let h: Harness;
let admin: Record<string, string>;
const tripCounts: Record<string, number> = {};
let trips: { unsubscribe(): void } | undefined;

/** Stands in for the trips service's trip-counts reply. */
function tripsUp() {
  trips = serveRpc({
    bus: h.runtime.bus,
    log: h.runtime.log,
    subject: RPC.tripCounts,
    request: TripCountsRequest,
    handle: async ({ pilotIds }) => ({ counts: Object.fromEntries((pilotIds ?? []).map((id) => [id, tripCounts[id] ?? 0])) }),
  });
}

beforeAll(async () => {
  h = await startAuth({ session_timeout_minutes: '30' });
  admin = h.adminCookies(['manage_pilots']);
  tripsUp();
});
afterAll(async () => {
  trips?.unsubscribe();
  await h.close();
});
beforeEach(() => h.clock.set(START));

const list = async (query = '') => {
  const response = await h.app.inject({ method: 'GET', url: `/api/admin/pilots${query}`, cookies: admin });
  expect(response.statusCode).toBe(200);
  return AdminPilotList.parse(response.json());
};
const adminPatch = (id: string, payload: object) => h.app.inject({ method: 'PATCH', url: `/api/admin/pilots/${id}`, cookies: admin, payload });
const DAY = 86_400_000;

describe('Admin pilots list', () => {
  let captain: Awaited<ReturnType<Harness['createPilot']>>;
  let officer: Awaited<ReturnType<Harness['createPilot']>>;
  beforeAll(async () => {
    captain = await h.createPilot({ firstName: 'carla', lastName: 'bishop', rank: 'CP', fleet: 'A350', usualReq: true });
    officer = await h.createPilot({ firstName: 'finn', lastName: 'mercer', rank: 'FO', fleet: 'B787', usualReq: false });
    await h.runtime.db('pilots').where({ id: officer.id }).update({ test_data: true });
    tripCounts[captain.id] = 3;
  });

  it('lists pilots with their trip counts from trips', async () => {
    const result = await list();
    expect(result.tripCountsAvailable).toBe(true);
    expect(result.total).toBeGreaterThanOrEqual(2);
    expect(result.pilots.find((p) => p.id === captain.id)?.tripCount).toBe(3);
    expect(result.pilots.find((p) => p.id === officer.id)?.tripCount).toBe(0);
  });

  it('filters by fleet, rank, data, master roster, trips and search', async () => {
    const ids = async (query: string) => (await list(query)).pilots.map((p) => p.id);
    expect(await ids('?fleet=B787')).toEqual([officer.id]);
    expect(await ids('?rank=CP&fleet=A350')).toContain(captain.id);
    expect(await ids('?rank=CP&fleet=A350')).not.toContain(officer.id);
    expect(await ids('?data=test')).toEqual([officer.id]);
    expect(await ids('?data=real')).not.toContain(officer.id);
    expect(await ids('?masterRoster=off')).toEqual([officer.id]);
    expect(await ids('?trips=has')).toEqual([captain.id]);
    expect(await ids('?trips=zero')).not.toContain(captain.id);
    expect(await ids('?search=Carla%20Bish')).toEqual([captain.id]);
    expect(await ids(`?search=${officer.employeeId}`)).toEqual([officer.id]);
    expect(await ids('?search=%25')).toEqual([]);
    const bad = await h.app.inject({ method: 'GET', url: '/api/admin/pilots?fleet=B747', cookies: admin });
    expect(bad.statusCode).toBe(400);
  });

  it('when trips is down, trip counts are null; the trips filter is 503 with a clear message', async () => {
    trips?.unsubscribe();
    try {
      const result = await list();
      expect(result.tripCountsAvailable).toBe(false);
      expect(result.pilots.every((p) => p.tripCount === null)).toBe(true);
      const filtered = await h.app.inject({ method: 'GET', url: '/api/admin/pilots?trips=zero', cookies: admin });
      expect(filtered.statusCode).toBe(503);
      expect(filtered.json().error).toMatch(/trips service is not answering/);
    } finally {
      tripsUp();
    }
  });
});

describe('Admin pilot edit', () => {
  it("required fields: 'Please fill in all required fields.'", async () => {
    const pilot = await h.createPilot();
    const blanks = { employeeId: ' ', firstName: '  ', lastName: '', email: ' ', phone: '', rank: '', fleet: '', base: '' };
    for (const [field, blank] of Object.entries(blanks)) {
      const response = await adminPatch(pilot.id, { [field]: blank });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('Please fill in all required fields.');
    }
  });

  it('phone +0 gets the admin message; phone keeps digits and a leading +', async () => {
    const pilot = await h.createPilot();
    const refused = await adminPatch(pilot.id, { phone: '+01234' });
    expect(refused.json()).toEqual({ title: 'Invalid Phone Number', error: ADMIN_PHONE_PLUS_ZERO_MESSAGE });
    expect((await adminPatch(pilot.id, { phone: '+1 (555) 010-9999' })).json().phone).toBe('+15550109999');
  });

  it('validates employee ID and email, and refuses duplicates (409)', async () => {
    const one = await h.createPilot();
    const two = await h.createPilot();
    expect((await adminPatch(one.id, { employeeId: '12' })).json().title).toBe('Invalid Employee ID');
    expect((await adminPatch(one.id, { email: 'not-an-email' })).statusCode).toBe(400);
    expect((await adminPatch(one.id, { employeeId: two.employeeId })).statusCode).toBe(409);
    expect((await adminPatch(one.id, { email: two.email.toUpperCase() })).statusCode).toBe(409);
    expect((await adminPatch(one.id, { email: 'New.Address@fly.virgin.com' })).json().email).toBe('new.address@fly.virgin.com');
  });

  it('tracking fields reset: rank clears rank and LTC dates, fleet clears the fleet date, LTC alone clears the LTC date, master roster clears usualReqOff', async () => {
    const me = await h.signedIn({ rank: 'CP', ltc: false, fleet: 'A330', usualReq: true });
    const own = (payload: object) => h.app.inject({ method: 'PATCH', url: `/api/pilots/${me.pilot.id}`, cookies: me.cookies, payload });
    await own({ ltc: true, fleet: 'A350', usualReq: false });
    h.clock.advance(DAY);
    await own({ rank: 'FO', apic: true });
    const locked = (await h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: me.cookies })).json();
    expect(locked).toMatchObject({ rankLastChanged: '2026-11-02', fleetLastChanged: '2026-11-01', ltcLastChanged: '2026-11-01', usualReqOff: '2026-11-01' });

    const fleet = (await adminPatch(me.pilot.id, { fleet: 'SFF' })).json();
    expect(fleet).toMatchObject({ fleet: 'SFF', fleetLastChanged: null, rankLastChanged: '2026-11-02' });
    const rank = (await adminPatch(me.pilot.id, { rank: 'CP' })).json();
    expect(rank).toMatchObject({ rank: 'CP', apic: true, rankLastChanged: null, ltcLastChanged: null });
    await h.runtime.db('pilots').where({ id: me.pilot.id }).update({ ltc_last_changed: '2026-11-01' });
    const ltc = (await adminPatch(me.pilot.id, { ltc: true })).json();
    expect(ltc).toMatchObject({ ltc: true, ltcLastChanged: null });
    const roster = (await adminPatch(me.pilot.id, { usualReq: true })).json();
    expect(roster).toMatchObject({ usualReq: true, usualReqOff: null });
    // The pilot may change them again at once.
    expect((await own({ fleet: 'A330' })).statusCode).toBe(200);
    const updates = (await h.events(SUBJECTS.pilotUpdated)).filter((event) => (event.data.pilot as { id: string }).id === me.pilot.id);
    expect(updates.at(-1)?.data.pilot).toMatchObject({ fleet: 'A330' });
  });

  it('an unknown pilot is 404', async () => {
    expect((await adminPatch('00000000-0000-4000-8000-000000000000', { base: 'MAN' })).statusCode).toBe(404);
  });
});

describe('Admin pilot password reset', () => {
  it('sets a temporary password, ends sessions and forces a change at next login', async () => {
    const me = await h.signedIn();
    const reset = (payload: object) => h.app.inject({ method: 'PATCH', url: `/api/admin/pilots/${me.pilot.id}/password`, cookies: admin, payload });
    expect((await reset({ password: '' })).json().error).toBe('Please fill in both password fields.');
    expect((await reset({ password: 'abcdef', confirmPassword: 'abcdeg' })).json().error).toBe('The passwords do not match. Please try again.');
    expect((await reset({ password: 'abc' })).json().error).toBe('Password must be at least 6 characters long.');
    const done = await reset({ password: 'temp-pass', confirmPassword: 'temp-pass' });
    expect(done.json()).toEqual({ temporaryPassword: 'temp-pass' });
    expect((await h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: me.cookies })).statusCode).toBe(401);
    expect((await h.login(me.pilot.email, 'temp-pass')).response.json().forcePasswordChange).toBe(true);
  });

  it('every service refuses the temporary-password session until the change is made, then serves the re-issued one', async () => {
    const me = await h.signedIn();
    await h.app.inject({ method: 'PATCH', url: `/api/admin/pilots/${me.pilot.id}/password`, cookies: admin, payload: { password: 'temp-pass', confirmPassword: 'temp-pass' } });
    const { cookie } = await h.login(me.pilot.email, 'temp-pass');
    // Another service: the kit's guard as trips and swaps run it, knowing only the token.
    const tripsApp = createServiceApp({ name: 'trips', logger: h.runtime.log, readiness: {} });
    tripsApp.post('/api/trips', async (request, reply) => reply.status(201).send(await h.runtime.guard.pilot(request)));
    const addTrip = (value: string) => tripsApp.inject({ method: 'POST', url: '/api/trips', cookies: { [PILOT_COOKIE]: value } });

    const refused = await addTrip(cookie!);
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { error: 'You must change your password before continuing.', title: 'Password Change Required', forcePasswordChange: true },
    ]);
    const change = await h.app.inject({
      method: 'POST',
      url: '/api/auth/force-password-change',
      cookies: { [PILOT_COOKIE]: cookie! },
      payload: { newPassword: 'brand-new', confirmPassword: 'brand-new' },
    });
    expect(change.statusCode).toBe(200);
    const reissued = change.cookies.find((c) => c.name === PILOT_COOKIE)!.value;
    expect((await addTrip(reissued)).statusCode).toBe(201);
    expect((await addTrip(cookie!)).statusCode).toBe(403);
    await tripsApp.close();
  });
});

describe('Admin pilot delete', () => {
  it('deletes for good: sessions end, auth.pilot.deleted goes out, no cooling-off record', async () => {
    const me = await h.signedIn();
    const response = await h.app.inject({ method: 'DELETE', url: `/api/admin/pilots/${me.pilot.id}`, cookies: admin });
    expect(response.statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: me.cookies })).statusCode).toBe(401);
    expect((await h.events(SUBJECTS.pilotDeleted)).map((event) => event.data)).toContainEqual({ pilotId: me.pilot.id, employeeId: me.pilot.employeeId });
    expect((await h.app.inject({ method: 'GET', url: `/api/check-deleted-pilot/${me.pilot.employeeId}` })).json()).toEqual({ exists: false });
    expect((await h.app.inject({ method: 'DELETE', url: `/api/admin/pilots/${me.pilot.id}`, cookies: admin })).statusCode).toBe(404);
  });
});

describe('Active sessions, login history and registrations', () => {
  it('active sessions list who is logged in; history shows the 20 most recent logins', async () => {
    const a = await h.signedIn({ firstName: 'ann', lastName: 'active', fleet: 'A330' });
    const b = await h.signedIn({ firstName: 'bob', lastName: 'leaving' });
    h.clock.advance(5 * 60_000);
    await h.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: b.cookies });
    const active = (await h.app.inject({ method: 'GET', url: '/api/admin/sessions/active', cookies: admin })).json();
    expect(active.activePilots).toContainEqual({
      id: a.pilot.id,
      rank: 'CP',
      firstName: 'Ann',
      lastName: 'Active',
      employeeId: a.pilot.employeeId,
      fleet: 'A330',
      loginTime: START.replace('Z', '.000Z'),
      lastActivity: START.replace('Z', '.000Z'),
    });
    expect(active.activePilots.map((p: { id: string }) => p.id)).not.toContain(b.pilot.id);
    expect(active.activeCount).toBe(active.activePilots.length);
    expect(active.uniquePilots).toBe(active.activeCount);

    const history = (await h.app.inject({ method: 'GET', url: '/api/admin/sessions/history', cookies: admin })).json();
    expect(history.recentLogins.length).toBeLessThanOrEqual(20);
    expect(history.recentLogins).toContainEqual(
      expect.objectContaining({ pilotName: 'Bob Leaving', pilotRank: 'CP', employeeId: b.pilot.employeeId, duration: 5, isActive: false }),
    );
    expect(history.recentLogins).toContainEqual(expect.objectContaining({ pilotName: 'Ann Active', logoutTime: null, isActive: true }));

    h.clock.advance(40 * 60_000);
    const later = (await h.app.inject({ method: 'GET', url: '/api/admin/sessions/active', cookies: admin })).json();
    expect(later.activePilots.map((p: { id: string }) => p.id)).not.toContain(a.pilot.id);
  });

  it('history holds at most 20 entries', async () => {
    for (let i = 0; i < 21; i++) await h.signedIn();
    const history = (await h.app.inject({ method: 'GET', url: '/api/admin/sessions/history', cookies: admin })).json();
    expect(history.recentLogins).toHaveLength(20);
  });

  it('recent registrations, newest first', async () => {
    h.clock.advance(DAY);
    const pilot = await h.createPilot({ firstName: 'rita', lastName: 'newcomer', rank: 'FO', apic: true, fleet: 'SFF', usualReq: false });
    const response = await h.app.inject({ method: 'GET', url: '/api/admin/recent-registrations', cookies: h.adminCookies(['view_analytics']) });
    expect(response.json().recentRegistrations[0]).toEqual({
      pilotName: 'Rita Newcomer',
      pilotRank: 'FO',
      fleet: 'SFF',
      employeeId: pilot.employeeId,
      masterRosterEnabled: false,
      registrationDate: '2026-11-02',
    });
  });
});

describe('Deleted pilots in the cooling-off period (Data Cleanup)', () => {
  it('lists self-deleted pilots; removal only past 30 days (409 before)', async () => {
    const cleanup = h.adminCookies(['manage_system']);
    const me = await h.signedIn({ firstName: 'dora', lastName: 'departed', rank: 'FO', apic: true, fleet: 'B787' });
    await h.app.inject({ method: 'DELETE', url: `/api/pilots/${me.pilot.id}`, cookies: me.cookies });
    const listed = (await h.app.inject({ method: 'GET', url: '/api/admin/cleanup/deleted-pilots', cookies: cleanup })).json();
    expect(listed.deletedPilots).toContainEqual({
      id: me.pilot.id,
      rank: 'FO',
      firstName: 'Dora',
      lastName: 'Departed',
      fleet: 'B787',
      employeeId: me.pilot.employeeId,
      deletionDate: '2026-11-01',
      daysSinceDeletion: 0,
      canRemove: false,
    });
    const remove = () => h.app.inject({ method: 'DELETE', url: `/api/admin/cleanup/deleted-pilots/${me.pilot.id}`, cookies: cleanup });
    h.clock.advance(29 * DAY);
    expect((await remove()).statusCode).toBe(409);
    h.clock.advance(DAY);
    expect((await remove()).statusCode).toBe(200);
    expect((await remove()).statusCode).toBe(404);
  });
});
