import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, signAdminToken } from '@crewswap/kit';
import { TEST_KEYS } from '@crewswap/kit-testing';
import { addDays, PROPOSAL_MESSAGES, SUBJECTS, type Pilot, type Permission, type SwapAgreement, type SwapRequest, type Trip, type TripMove } from '@crewswap/proto';
import { freshDate, makeTrip, startHarness, type Harness } from './helpers';

describe('the crewing desk: swap requests approved or refused by crewing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const adminCookies = (permissions: Permission[] = ['manage_swaps']) => ({
    [ADMIN_COOKIE]: signAdminToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin: false, permissions }),
  });
  const desk = adminCookies();
  const asAdmin = (method: 'GET' | 'POST', url: string, cookies: Record<string, string> = desk, payload?: object) => h.service.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  const approve = (id: string, cookies = desk) => asAdmin('POST', `/api/admin/swap-requests/${id}/approve`, cookies);
  const refuse = (id: string, reason: unknown, cookies = desk) => asAdmin('POST', `/api/admin/swap-requests/${id}/refuse`, cookies, { reason });
  const listed = async (query = ''): Promise<SwapRequest[]> => (await asAdmin('GET', `/api/admin/swap-requests${query}`)).json().requests;
  const post = (pilot: { id: string }, url: string, payload: object = {}) => h.service.app.inject({ method: 'POST', url, payload, cookies: h.cookies(pilot) });
  const events = async (subject: string) => (await h.db('outbox').where({ subject }).orderBy('seq')).map((row: { envelope: { data: { agreement: SwapAgreement; moves?: TripMove[]; by: string } } }) => row.envelope.data);

  /** Two pilots who agreed a swap of the owner's offered trip for the proposer's. */
  async function agreed(start = freshDate(), fleet: Pilot['fleet'] = 'A350') {
    const owner = await h.register({ rank: 'CP', fleet });
    const offered = await h.addTrip(owner, { startDate: start, isSwappable: true });
    const proposer = await h.register({ rank: 'CP', fleet });
    const mine = await h.addTrip(proposer, { startDate: addDays(start, 1) });
    const proposal = (await post(proposer, '/api/swaps/proposals', { offeredTripId: offered.id, myTripId: mine.id, note: 'Family wedding' })).json();
    const accepted = await post(owner, `/api/swaps/proposals/${proposal.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    const agreement = accepted.json().agreement as SwapAgreement;
    return { start, owner, offered, proposer, mine, agreement };
  }

  it('lists pending requests oldest first with both pilots, both trips and the note, filtered by fleet; approve moves both trips', async () => {
    const swap = await agreed(freshDate(), 'B787');
    const pending = (await listed('?status=pending&fleet=B787')).filter((r) => r.id === swap.agreement.id);
    expect(pending).toEqual([
      expect.objectContaining({ status: 'pending', kind: 'swap', note: 'Family wedding', warnings: [], decidedAt: null, decidedBy: null, reason: null }),
    ]);
    expect(pending[0]).toMatchObject({ proposer: { pilot: { id: swap.proposer.id }, trip: { id: swap.mine.id } }, owner: { pilot: { id: swap.owner.id }, trip: { id: swap.offered.id } } });
    expect((await listed('?fleet=A330')).map((r) => r.id)).not.toContain(swap.agreement.id);
    const bad = await asAdmin('GET', '/api/admin/swap-requests?status=maybe');
    expect([bad.statusCode, bad.json().error]).toEqual([400, "status must be 'pending', 'approved' or 'refused'"]);

    const approved = await approve(swap.agreement.id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ id: swap.agreement.id, status: 'approved', decidedBy: expect.any(String), decidedAt: expect.any(String) });
    const event = (await events(SUBJECTS.agreementApproved)).find((e) => e.agreement.id === swap.agreement.id)!;
    expect(event.moves).toEqual([
      { tripId: swap.mine.id, fromPilotId: swap.proposer.id, toPilotId: swap.owner.id },
      { tripId: swap.offered.id, fromPilotId: swap.owner.id, toPilotId: swap.proposer.id },
    ]);
    expect(event.by).toBe(approved.json().decidedBy);
    const again = await approve(swap.agreement.id);
    expect([again.statusCode, again.json().error]).toEqual([409, PROPOSAL_MESSAGES.requestNotPending]);
    expect((await listed('?status=approved')).map((r) => r.id)).toContain(swap.agreement.id);
    expect((await listed('?status=pending')).map((r) => r.id)).not.toContain(swap.agreement.id);
  });

  it('refuse needs a reason (at most 200 characters); nothing moves and both trips are free again', async () => {
    const swap = await agreed();
    for (const reason of ['', '   ', 'x'.repeat(201), 7]) {
      const response = await refuse(swap.agreement.id, reason);
      expect(response.statusCode).toBe(400);
    }
    expect((await refuse(swap.agreement.id, '')).json().error).toBe('Please give a reason');
    expect((await h.db('agreements').where({ id: swap.agreement.id }).first()).status).toBe('agreed');
    const refused = await refuse(swap.agreement.id, 'Training course that week');
    expect([refused.statusCode, refused.json().status, refused.json().reason]).toEqual([200, 'refused', 'Training course that week']);
    expect((await events(SUBJECTS.agreementRefused)).map((e) => e.agreement.id)).toContain(swap.agreement.id);
    expect((await events(SUBJECTS.agreementApproved)).map((e) => e.agreement.id)).not.toContain(swap.agreement.id);
    expect(await h.db('agreement_trips').where({ agreement_id: swap.agreement.id })).toEqual([]);
    expect((await approve(swap.agreement.id)).json().error).toBe(PROPOSAL_MESSAGES.requestNotPending);
    expect((await refuse(randomUUID(), 'x')).statusCode).toBe(404);
  });

  it('refuses to approve, with 409, a swap whose trip a roster import changed, and one that would give a pilot overlapping trips', async () => {
    const changed = await agreed();
    // The owner's next roster moves the offered trip by a day.
    const moved: Trip = { ...changed.offered, isSwappable: false, startDate: addDays(changed.offered.startDate, 1), endDate: addDays(changed.offered.endDate, 1) };
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: moved, origin: { channel: 'roster_upload' } }, 3);
    expect((await listed('?status=pending')).find((r) => r.id === changed.agreement.id)?.warnings).toEqual([expect.stringContaining('has changed or been removed since the agreement')]);
    const refusedChange = await approve(changed.agreement.id);
    expect([refusedChange.statusCode, refusedChange.json().error]).toEqual([409, PROPOSAL_MESSAGES.requestTripChanged]);

    const clash = await agreed();
    // The proposer now also holds a trip on the days of the trip they would take.
    await h.addTrip(clash.proposer, { flightNoStart: 'VS117', flightNoEnd: 'VS118', startDate: addDays(clash.start, -1), endDate: clash.start });
    expect((await listed('?status=pending')).find((r) => r.id === clash.agreement.id)?.warnings).toEqual([expect.stringContaining('would hold two overlapping trips')]);
    const refusedClash = await approve(clash.agreement.id);
    expect([refusedClash.statusCode, refusedClash.json().error]).toEqual([409, PROPOSAL_MESSAGES.requestWouldOverlap]);
    expect(await h.db('agreements').whereIn('id', [changed.agreement.id, clash.agreement.id]).pluck('status')).toEqual(['agreed', 'agreed']);
  });

  it('two admins deciding at once: exactly one decision wins and the other gets 409, 100 times out of 100', async () => {
    const owner = await h.register({ rank: 'FO', fleet: 'A330' });
    const proposer = await h.register({ rank: 'FO', fleet: 'A330' });
    const first = '2027-03-01';
    // Published all at once and waited for after, one poll at a time: 200 pollers at once starve a small machine.
    const pairs = Array.from({ length: 100 }, (_, i) => {
      const day = addDays(first, 2 * i);
      return { offered: makeTrip(owner, { flightNoStart: `VS${i}`, startDate: day, endDate: day, isSwappable: true }), mine: makeTrip(proposer, { flightNoStart: `VX${i}`, startDate: day, endDate: day }) };
    });
    const published = [];
    for (const { offered, mine } of pairs) published.push(await h.publish(SUBJECTS.tripOffered, { trip: offered }), await h.publish(SUBJECTS.tripCreated, { trip: mine }));
    for (const event of published) await h.applied(event);
    const agreements: string[] = [];
    for (const { offered, mine } of pairs) {
      const proposal = (await post(proposer, '/api/swaps/proposals', { offeredTripId: offered.id, myTripId: mine.id })).json();
      agreements.push((await post(owner, `/api/swaps/proposals/${proposal.id}/accept`)).json().agreement.id);
    }
    const second = adminCookies();
    const outcomes = await Promise.all(
      agreements.map(async (id, i) => {
        const [one, other] = await Promise.all([approve(id), i % 2 === 0 ? approve(id, second) : refuse(id, 'Crew shortage', second)]);
        return [one.statusCode, other.statusCode].sort().join(' ');
      }),
    );
    expect(outcomes.filter((outcome) => outcome === '200 409')).toHaveLength(100);
    const decided = await h.db('agreements').whereIn('id', agreements).whereIn('status', ['approved', 'refused']).count<{ count: string }[]>('* as count');
    expect(Number(decided[0]!.count)).toBe(100);
    const decisions = [...(await events(SUBJECTS.agreementApproved)), ...(await events(SUBJECTS.agreementRefused))].filter((e) => agreements.includes(e.agreement.id));
    expect(decisions).toHaveLength(100);
  }, 60_000);

  it('every desk route answers 401 without an admin session (a pilot session is not one) and 403 without manage_swaps', async () => {
    const swap = await agreed();
    const routes: ['GET' | 'POST', string, object?][] = [
      ['GET', '/api/admin/swap-requests'],
      ['POST', `/api/admin/swap-requests/${swap.agreement.id}/approve`],
      ['POST', `/api/admin/swap-requests/${swap.agreement.id}/refuse`, { reason: 'No' }],
    ];
    const analyst = adminCookies(['view_analytics']);
    for (const [method, url, payload] of routes) {
      const none = await h.service.app.inject({ method, url, ...(payload ? { payload } : {}) });
      const pilot = await h.service.app.inject({ method, url, cookies: h.cookies(swap.owner), ...(payload ? { payload } : {}) });
      const forbidden = await asAdmin(method, url, analyst, payload);
      expect([url, none.statusCode, pilot.statusCode, forbidden.statusCode]).toEqual([url, 401, 401, 403]);
    }
    expect((await h.db('agreements').where({ id: swap.agreement.id }).first()).status).toBe('agreed');
  });

  it("a pilot can no longer record crewing's answer: 410 whatever the body, and nothing changes", async () => {
    const swap = await agreed();
    for (const payload of [{ status: 'approved' }, { status: 'maybe' }, {}]) {
      const response = await post(swap.owner, `/api/swaps/agreements/${swap.agreement.id}/crewing`, payload);
      expect([response.statusCode, response.json().error]).toEqual([410, PROPOSAL_MESSAGES.crewingDecides]);
    }
    expect((await h.db('agreements').where({ id: swap.agreement.id }).first()).status).toBe('agreed');
  });
});
