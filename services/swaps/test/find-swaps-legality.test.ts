import { randomUUID } from 'node:crypto';
import { addDays, LEGALITY_MESSAGES, numericDate, type Pilot, type Sector, type SwapMatch, type SwapMatchPage, type SwapRequest, type Trip } from '@crewswap/proto';
import { ADMIN_COOKIE, signAdminToken } from '@crewswap/kit';
import { TEST_KEYS } from '@crewswap/kit-testing';
import { freshDate, startHarness, type Harness } from './helpers';

/** A sector leaving `date` at `depart` (UTC, 'HH:MM') and flying `hours`. */
function sector(flightNo: string, from: string, to: string, date: string, depart: string, hours: number): Sector {
  const departAt = `${date}T${depart}:00Z`;
  return { flightNo, from, to, departAt, arriveAt: new Date(Date.parse(departAt) + hours * 3_600_000).toISOString().replace('.000Z', 'Z'), positioning: false };
}

/** A trip with times, as an imported roster gives it (its value as trips derives it). */
function flown(sectors: Sector[], extra: Partial<Trip> = {}): Partial<Trip> {
  const block = sectors.reduce((sum, s) => sum + (Date.parse(s.arriveAt) - Date.parse(s.departAt)) / 60_000, 0);
  return {
    flightNoStart: sectors[0]!.flightNo,
    flightNoEnd: sectors.at(-1)!.flightNo,
    startDate: sectors[0]!.departAt.slice(0, 10),
    endDate: sectors.at(-1)!.arriveAt.slice(0, 10),
    sectors,
    blockMinutes: block,
    landings: sectors.length,
    ...extra,
  };
}

describe('Find swaps, proposals and the desk check the flight time limitations (issue 55)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const post = (pilot: { id: string }, url: string, payload: object = {}) => h.service.app.inject({ method: 'POST', url, payload, cookies: h.cookies(pilot) });
  const desk = { [ADMIN_COOKIE]: signAdminToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin: false, permissions: ['manage_swaps'] }) };
  const asAdmin = (method: 'GET' | 'POST', url: string) => h.service.app.inject({ method, url, cookies: desk });

  /**
   * Me with a JFK trip home at 06:00 on day 2 and a trip on day 4 to give away; offers: one
   * leaving at 12:00 on day 2 (4 h 30 min of rest: not legal), one on day 6 whose owner may not
   * fly my day-4 trip (they come home at 23:00 on day 3), one on day 5 from a free owner, and a
   * typed one (no times: unknown).
   */
  async function world() {
    const d = freshDate();
    const day = (n: number) => addDays(d, n);
    const me = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(me, flown([sector('VS003', 'LHR', 'JFK', day(0), '10:00', 8), sector('VS004', 'JFK', 'LHR', day(1), '22:00', 8)]));
    const mine = await h.addTrip(me, flown([sector('VS005', 'LHR', 'JFK', day(4), '08:00', 8), sector('VS006', 'JFK', 'LHR', day(5), '22:00', 8)]));
    const owners: Pilot[] = [];
    for (let i = 0; i < 4; i += 1) owners.push(await h.register({ rank: 'CP', fleet: 'A350' }));
    const tooSoon = await h.addTrip(owners[0]!, { ...flown([sector('VS011', 'LHR', 'BOS', day(2), '12:00', 7), sector('VS012', 'BOS', 'LHR', day(3), '20:00', 6)]), isSwappable: true });
    await h.addTrip(owners[1]!, flown([sector('VS021', 'LHR', 'LOS', day(2), '10:00', 6), sector('VS022', 'LOS', 'LHR', day(3), '15:00', 7)]));
    const ownerBusy = await h.addTrip(owners[1]!, { ...flown([sector('VS023', 'LHR', 'LAX', day(6), '10:00', 11), sector('VS024', 'LAX', 'LHR', day(8), '18:00', 10)]), isSwappable: true });
    const free = await h.addTrip(owners[2]!, { ...flown([sector('VS031', 'LHR', 'JFK', day(5), '10:00', 8), sector('VS032', 'JFK', 'LHR', day(6), '22:00', 8)]), isSwappable: true });
    const typed = await h.addTrip(owners[3]!, { startDate: day(3), endDate: day(4), flightNoStart: 'VS041', isSwappable: true });
    return { d, day, me, mine, owners, tooSoon, ownerBusy, free, typed };
  }

  it("marks each offer legal, not legal (with the rest figure) or unknown, and Mutual only when legal both ways", async () => {
    const { day, me, mine, tooSoon, ownerBusy, free, typed } = await world();
    const response = await h.matches(me, mine.id);
    expect(response.statusCode).toBe(200);
    const rows = new Map((response.json() as SwapMatch[]).map((row) => [row.trip.id, row]));
    expect(rows.get(tooSoon.id)).toMatchObject({ legal: false, reasons: [LEGALITY_MESSAGES.rest('VS011', day(2), 270, 12 * 60)], mutual: false });
    expect(rows.get(tooSoon.id)!.reasons).toEqual([`Rest before VS011 on ${numericDate(day(2))} would be 4 h 30 min; at least 12 h needed`]);
    expect(rows.get(free.id)).toMatchObject({ legal: true, reasons: [], mutual: true });
    // Its owner lands at 23:00 the night before my day-4 trip would report: not Mutual.
    expect(rows.get(ownerBusy.id)).toMatchObject({ legal: true, mutual: false });
    expect(rows.get(typed.id)).toMatchObject({ legal: 'unknown', reasons: [LEGALITY_MESSAGES.timesUnknown('VS041', day(3))] });
  });

  it('hides offers that are not legal on asking (unknown ones stay), and counts only what it shows', async () => {
    const { me, mine, tooSoon, ownerBusy, free, typed } = await world();
    const ids = async (query: string) => ((await h.matches(me, mine.id, query)).json() as SwapMatch[]).map((row) => row.trip.id);
    const shown = await ids('?legalOnly=true');
    expect(shown).not.toContain(tooSoon.id);
    expect(shown).toEqual(expect.arrayContaining([ownerBusy.id, free.id, typed.id]));
    const page = (await h.matches(me, mine.id, '?legalOnly=true&limit=2')).json() as SwapMatchPage;
    expect(page.total).toBe(3);
    expect((await h.matches(me, mine.id, '?legalOnly=maybe')).statusCode).toBe(400);
  });

  it('sorts by block hours (most first, unknown last) and by days away (fewest first), page by page with cursors', async () => {
    const { me, mine, tooSoon, ownerBusy, free, typed } = await world();
    const order = async (sort: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
        const page = (await h.matches(me, mine.id, query)).json() as SwapMatchPage;
        seen.push(...page.matches.map((row) => row.trip.id));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    // Block: LAX 21 h, JFK 16 h, BOS 13 h, typed unknown.
    expect(await order('block')).toEqual([ownerBusy.id, free.id, tooSoon.id, typed.id]);
    // Days away: typed 2 days, then BOS and JFK 3 days each (by date), LAX 4 days.
    expect(await order('daysAway')).toEqual([typed.id, tooSoon.id, free.id, ownerBusy.id]);
    // A cursor of one order is refused in another.
    const first = (await h.matches(me, mine.id, '?sort=block&limit=1')).json() as SwapMatchPage;
    expect((await h.matches(me, mine.id, `?sort=daysAway&limit=1&cursor=${first.nextCursor}`)).statusCode).toBe(400);
  });

  it('refuses to propose an illegal swap with the same sentence (409); an unknown one goes through', async () => {
    const { day, me, mine, tooSoon, typed } = await world();
    const refused = await post(me, '/api/swaps/proposals', { offeredTripId: tooSoon.id, myTripId: mine.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: `Rest before VS011 on ${numericDate(day(2))} would be 4 h 30 min; at least 12 h needed` });
    expect((await post(me, '/api/swaps/proposals', { offeredTripId: typed.id, myTripId: mine.id })).statusCode).toBe(201);
  });

  it('refuses to accept, and the desk to approve, a swap that has become illegal, and the desk shows both checks', async () => {
    const { day, me, mine, owners, free } = await world();
    const proposal = (await post(me, '/api/swaps/proposals', { offeredTripId: free.id, myTripId: mine.id })).json() as { id: string };
    // The owner is rostered home at 03:00 on day 4, three and a half hours before my trip would report (07:00).
    const late = await h.addTrip(owners[2]!, flown([sector('VS033', 'LHR', 'MAD', day(3), '20:00', 2.5), sector('VS034', 'MAD', 'LHR', day(4), '00:30', 2.5)]));
    const accept = await post(owners[2]!, `/api/swaps/proposals/${proposal.id}/accept`);
    expect(accept.statusCode).toBe(409);
    expect(accept.json().error).toMatch(/^Rest before VS005 on .* would be 3 h 30 min; at least 12 h needed$/);

    // Once the late trip is gone, the swap is agreed; then it comes back and the desk refuses to approve.
    await h.publishAndWait('trips.trip.deleted', { tripId: late.id, pilotId: owners[2]!.id });
    const agreed = await post(owners[2]!, `/api/swaps/proposals/${proposal.id}/accept`);
    expect(agreed.statusCode).toBe(200);
    const agreementId = (agreed.json() as { agreement: { id: string } }).agreement.id;
    // A day trip home at 23:00 on day 3 (no date shared with mine, so no overlap): 7 h 30 min of rest.
    await h.addTrip(owners[2]!, { ...flown([sector('VS035', 'LHR', 'MAD', day(3), '15:00', 2.5), sector('VS036', 'MAD', 'LHR', day(3), '20:30', 2.5)]) });
    const listed = ((await asAdmin('GET', '/api/admin/swap-requests')).json() as { requests: SwapRequest[] }).requests.find((request) => request.id === agreementId)!;
    expect(listed.legality).toEqual({ proposer: { legal: true, reasons: [] }, owner: { legal: false, reasons: [`Rest before VS005 on ${numericDate(day(4))} would be 7 h 30 min; at least 12 h needed`] } });
    const approve = await asAdmin('POST', `/api/admin/swap-requests/${agreementId}/approve`);
    expect(approve.statusCode).toBe(409);
    expect(approve.json()).toEqual({ error: `Rest before VS005 on ${numericDate(day(4))} would be 7 h 30 min; at least 12 h needed` });
  });

  it('answers the same from Postgres as from the offer index, for every order, hidden or not, page by page (run last: it stops the index)', async () => {
    const { me, mine } = await world();
    const queries = ['', '?legalOnly=true', '?sort=block', '?sort=daysAway&legalOnly=true', '?sort=start&limit=2', '?limit=1', '?sort=block&limit=2&legalOnly=true'];
    const answers = async () => Promise.all(queries.map(async (query) => (await h.matches(me, mine.id, query)).body));
    const fromMemory = await answers();
    await h.service.offers.close();
    expect(h.service.offers.status().ready).toBe(false);
    expect(await answers()).toEqual(fromMemory);
  });
});
