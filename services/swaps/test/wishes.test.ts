import { addDays, MAX_WISHES, WISH_MESSAGES, type Pilot, type Wish } from '@crewswap/proto';
import { randomUUID } from 'node:crypto';
import { freshDate, startHarness, TODAY, type Harness } from './helpers';

describe('Wishes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const send = (pilot: Pilot, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    h.service.app.inject({ method, url, cookies: h.cookies(pilot), ...(payload ? { payload } : {}) });
  const listOf = async (pilot: Pilot) => (await send(pilot, 'GET', '/api/notifications/wishes')).json() as Wish[];
  const save = async (pilot: Pilot, wish: object) => {
    const response = await send(pilot, 'POST', '/api/notifications/wishes', wish);
    if (response.statusCode !== 201) throw new Error(`save answered ${response.statusCode}: ${response.body}`);
    return response.json() as Wish;
  };

  it('saves, lists, changes and deletes a wish, each listed with how many current offers match it', async () => {
    const start = freshDate();
    const me = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(me, { startDate: start });
    const other = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(other, { startDate: start, route: 'LAX', isSwappable: true });
    await h.addTrip(other, { startDate: addDays(start, 1), route: 'SEA-SFO', isSwappable: true });
    // Same airport, but a first officer's: the swap rule says no.
    const officer = await h.register({ rank: 'FO', fleet: 'A350' });
    await h.addTrip(officer, { startDate: start, route: 'LAX', isSwappable: true });

    const wish = await save(me, { destinations: ['lax', 'SFO'] });
    expect(wish).toEqual({ id: expect.any(String), destinations: ['LAX', 'SFO'], startDate: null, endDate: null, forTripId: null, matchingOffers: 2, createdAt: expect.any(String) });
    expect(await listOf(me)).toEqual([wish]);

    const changed = await send(me, 'PUT', `/api/notifications/wishes/${wish.id}`, { destinations: ['SFO'], startDate: addDays(start, 1), endDate: addDays(start, 2) });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ id: wish.id, destinations: ['SFO'], startDate: addDays(start, 1), endDate: addDays(start, 2), matchingOffers: 1 });
    const laterDates = await send(me, 'PUT', `/api/notifications/wishes/${wish.id}`, { destinations: ['SFO'], startDate: addDays(start, 2) });
    expect(laterDates.json()).toMatchObject({ matchingOffers: 0 });

    expect((await send(me, 'DELETE', `/api/notifications/wishes/${wish.id}`)).statusCode).toBe(204);
    expect(await listOf(me)).toEqual([]);
  });

  it("counts only offers that could take the wish's own trip when it names one", async () => {
    const start = freshDate();
    const me = await h.register({ rank: 'CP', fleet: 'A350' });
    const near = await h.addTrip(me, { startDate: start });
    const far = await h.addTrip(me, { startDate: addDays(start, 15) });
    const other = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(other, { startDate: addDays(start, 1), route: 'LAX', isSwappable: true });
    expect((await save(me, { destinations: ['LAX'], forTripId: near.id })).matchingOffers).toBe(1);
    expect((await save(me, { destinations: ['LAX'], forTripId: far.id })).matchingOffers).toBe(0);
  });

  it(`keeps at most ${MAX_WISHES} wishes`, async () => {
    const me = await h.register();
    for (let i = 0; i < MAX_WISHES; i += 1) await save(me, { destinations: ['JFK'] });
    const eleventh = await send(me, 'POST', '/api/notifications/wishes', { destinations: ['JFK'] });
    expect(eleventh.statusCode).toBe(400);
    expect(eleventh.json().error).toBe(WISH_MESSAGES.tooMany);
    expect(await listOf(me)).toHaveLength(MAX_WISHES);
  });

  it('refuses bad wishes with a message and saves nothing', async () => {
    const me = await h.register();
    const cases: [object, string][] = [
      [{ destinations: [] }, 'Choose at least one destination'],
      [{ destinations: ['NEWYORK'] }, 'Each destination is a 3-letter airport code (e.g. JFK)'],
      [{ destinations: ['JFK'], startDate: '2026-12-10', endDate: '2026-12-01' }, 'End date cannot be before start date'],
      [{ destinations: ['JFK'], startDate: '2026-02-30' }, 'Not a real calendar date'],
      [{ destinations: ['JFK'], colour: 'red' }, 'Unknown field(s): colour'],
    ];
    for (const [body, message] of cases) {
      const response = await send(me, 'POST', '/api/notifications/wishes', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(message);
    }
    const farAway = await send(me, 'POST', '/api/notifications/wishes', { destinations: ['JFK'], startDate: addDays(TODAY, 5000) });
    expect(farAway.statusCode).toBe(400);
    expect(await listOf(me)).toEqual([]);
  });

  it("never shows, changes or deletes another pilot's wish, nor names another pilot's trip", async () => {
    const me = await h.register();
    const mine = await save(me, { destinations: ['JFK'] });
    const other = await h.register();
    const theirTrip = await h.addTrip(other, { startDate: freshDate() });
    expect(await listOf(other)).toEqual([]);
    const edit = await send(other, 'PUT', `/api/notifications/wishes/${mine.id}`, { destinations: ['LAX'] });
    expect(edit.statusCode).toBe(404);
    expect(edit.json().error).toBe(WISH_MESSAGES.notFound);
    expect((await send(other, 'DELETE', `/api/notifications/wishes/${mine.id}`)).statusCode).toBe(404);
    const borrowed = await send(me, 'POST', '/api/notifications/wishes', { destinations: ['JFK'], forTripId: theirTrip.id });
    expect(borrowed.statusCode).toBe(404);
    expect(borrowed.json().error).toBe(WISH_MESSAGES.tripNotFound);
    expect((await send(me, 'DELETE', `/api/notifications/wishes/${randomUUID()}`)).statusCode).toBe(404);
    expect(await listOf(me)).toEqual([mine]);
    expect((await h.service.app.inject({ method: 'GET', url: '/api/notifications/wishes' })).statusCode).toBe(401);
  });

  it('alerts a pilot whose wish a new offer answers, naming the wish; other compatible pilots get the plain alert', async () => {
    const start = freshDate();
    const owner = await h.register({ rank: 'CP', fleet: 'A350' });
    const wisher = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(wisher, { startDate: start });
    await save(wisher, { destinations: ['LAX', 'SFO'], startDate: start, endDate: addDays(start, 3) });
    const plain = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(plain, { startDate: start });
    await save(plain, { destinations: ['BOS'] });
    // A wish for the airport, but nothing the rule lets them swap: no alert.
    const officer = await h.register({ rank: 'FO', fleet: 'A350' });
    await h.addTrip(officer, { startDate: start });
    await save(officer, { destinations: ['LAX'] });

    const offer = await h.addTrip(owner, { startDate: start, route: 'SEA-LAX', isSwappable: true });
    const pushes = await h.pushedFor(offer.id);
    expect(pushes.map((p) => p.pilotId).sort()).toEqual([wisher.id, plain.id].sort());
    expect(pushes.find((p) => p.pilotId === wisher.id)).toMatchObject({
      title: `Swap offer for your wish LAX, SFO (${start} to ${addDays(start, 3)})`,
      reason: 'wish',
      urgent: false,
    });
    expect(pushes.find((p) => p.pilotId === plain.id)).toMatchObject({ title: 'New swap offer', reason: 'offer' });
  });

  it('alerts an offer starting within 48 hours at once with Urgent in the title', async () => {
    const owner = await h.register({ rank: 'FO', fleet: 'B787' });
    const other = await h.register({ rank: 'FO', fleet: 'B787' });
    const wisher = await h.register({ rank: 'FO', fleet: 'B787' });
    // The clock says 2026-11-01: the day after tomorrow is within 48 hours.
    const start = addDays(TODAY, 2);
    await h.addTrip(other, { startDate: start });
    await h.addTrip(wisher, { startDate: start });
    await save(wisher, { destinations: ['JFK'] });
    const offer = await h.addTrip(owner, { startDate: start, isSwappable: true });
    const pushes = await h.pushedFor(offer.id);
    expect(pushes.find((p) => p.pilotId === other.id)).toMatchObject({ title: 'Urgent: new swap offer', reason: 'urgent', urgent: true });
    expect(pushes.find((p) => p.pilotId === wisher.id)).toMatchObject({ title: 'Urgent: Swap offer for your wish JFK', reason: 'wish', urgent: true });

    const later = await h.addTrip(owner, { startDate: addDays(TODAY, 3), isSwappable: true });
    expect((await h.pushedFor(later.id)).find((p) => p.pilotId === other.id)).toMatchObject({ title: 'New swap offer', reason: 'offer', urgent: false });
  });
});
