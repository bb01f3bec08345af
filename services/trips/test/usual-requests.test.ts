import { MASTER_ROSTER_MESSAGES, SEARCH_MESSAGES as S, type PilotStats, type UsualRequestsResponse } from '@crewswap/proto';
import { crewPilot, crewTestService, freshFlight, type CrewPilot } from './crew-helpers';
import { startTestService, type TestService } from './helpers';

describe('Trip Search (Usual Requests)', () => {
  const service = crewTestService();

  const search = async (caller: CrewPilot, query: Record<string, string>) =>
    caller.get(`/api/usual-requests/search?${new URLSearchParams(query).toString()}`);

  it.each([
    [{ date: '2026-11-10' }, S.criteriaTitle, S.criteria],
    [{ date: '2026-11-10', flightNumber: 'VS12' }, S.flightNumberTitle, S.flightNumber],
    [{ date: '2026-11-10', flightNumber: 'BA123' }, S.flightNumberTitle, S.flightNumber],
    [{ date: '2026-11-10', destination: 'JF' }, S.routeFormatTitle, S.routeFormat],
    [{ date: '2026-11-10', destination: 'LHR-JFK-BOS' }, S.routeFormatTitle, S.routeFormat],
    [{ flightNumber: 'VS003' }, S.dateTitle, S.date],
    [{ date: '2026-11-10', destination: 'XQX' }, S.unknownAirportTitle, 'XQX is not a valid IATA airport code in our database.'],
    [{ date: '2026-11-10', destination: 'LHR-XQY' }, S.unknownAirportTitle, 'XQY is not a valid IATA airport code in our database.'],
  ])('checks the search %j: %s', async (query, title, error) => {
    const me = await crewPilot(service());
    expect(await search(me, query)).toEqual({ status: 400, body: { error, title } });
  });

  it('refuses a date that is not a date, and query fields it does not know', async () => {
    const me = await crewPilot(service());
    expect((await search(me, { date: '2026-02-30', flightNumber: 'VS003' })).status).toBe(400);
    expect((await search(me, { date: '2026-11-10', flightNumber: 'VS003', pilotId: 'x' })).status).toBe(400);
  });

  it('answers 403 Not Available to a pilot with Master Roster off', async () => {
    const off = await crewPilot(service(), { usualReq: false });
    expect(await search(off, { date: '2026-11-10', flightNumber: 'VS003' })).toEqual({
      status: 403,
      body: { error: MASTER_ROSTER_MESSAGES.notAvailable, title: MASTER_ROSTER_MESSAGES.notAvailableTitle },
    });
  });

  it('finds a flight by its number on the day it departs or returns, with its crew in crew order; lowercase input is shaped', async () => {
    const flight = freshFlight();
    const me = await crewPilot(service());
    const fo = await crewPilot(service(), { rank: 'FO', firstName: 'Fay' });
    await fo.addTrip({ ...flight, route: 'BOS', startDate: '2026-11-10', endDate: '2026-11-12', icsDescription: `${flight.flightNoStart} LHR 1100 BOS 1400` });
    const cp = await crewPilot(service(), { rank: 'CP', firstName: 'Cal' });
    await cp.addTrip({ ...flight, route: 'BOS', startDate: '2026-11-10', endDate: '2026-11-12' });
    // Master Roster off: not shown (decisions.md).
    await (await crewPilot(service(), { usualReq: false })).addTrip({ ...flight, route: 'BOS', startDate: '2026-11-10', endDate: '2026-11-12' });

    const out = await search(me, { date: '2026-11-10', flightNumber: flight.flightNoStart.toLowerCase() });
    expect(out.status).toBe(200);
    const body = out.body as UsualRequestsResponse;
    expect(body.message).toBeNull();
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ flightNoStart: flight.flightNoStart, route: 'BOS', startDate: '2026-11-10', icsDescription: `${flight.flightNoStart} LHR 1100 BOS 1400` });
    expect(body.results[0]!.crew.map((member) => member.firstName)).toEqual(['Cal', 'Fay']);

    const back = (await search(me, { date: '2026-11-12', flightNumber: flight.flightNoEnd })).body as UsualRequestsResponse;
    expect(back.results.map((result) => result.crew.length)).toEqual([2]);
    const otherDay = (await search(me, { date: '2026-11-11', flightNumber: flight.flightNoStart })).body as UsualRequestsResponse;
    expect(otherDay).toEqual({ results: [], title: S.noResultsTitle, message: S.noResults });
  });

  it('finds trips by a 3-letter code or an AAA-BBB route (home base dropped) whose dates cover the day, and by both criteria together', async () => {
    const me = await crewPilot(service());
    const seaLax = freshFlight();
    await (await crewPilot(service(), { firstName: 'Sea' })).addTrip({ ...seaLax, route: 'SEA-LAX', startDate: '2026-11-20', endDate: '2026-11-23' });
    const lax = freshFlight();
    await (await crewPilot(service(), { firstName: 'Lax' })).addTrip({ ...lax, route: 'LAX', startDate: '2026-11-21', endDate: '2026-11-23' });

    const byCode = (await search(me, { date: '2026-11-22', destination: 'lax' })).body as UsualRequestsResponse;
    expect(byCode.results.map((result) => result.route)).toEqual(['SEA-LAX', 'LAX']);
    const byRoute = (await search(me, { date: '2026-11-22', destination: 'SEA-LAX' })).body as UsualRequestsResponse;
    expect(byRoute.results.map((result) => result.route)).toEqual(['SEA-LAX']);
    const fromBase = (await search(me, { date: '2026-11-21', destination: 'LHR-LAX' })).body as UsualRequestsResponse;
    expect(fromBase.results.map((result) => result.route)).toEqual(['SEA-LAX', 'LAX']);
    const both = (await search(me, { date: '2026-11-21', destination: 'LAX', flightNumber: lax.flightNoStart })).body as UsualRequestsResponse;
    expect(both.results.map((result) => result.crew[0]!.firstName)).toEqual(['Lax']);
    const before = (await search(me, { date: '2026-11-19', destination: 'LAX' })).body as UsualRequestsResponse;
    expect(before.message).toBe(S.noResults);
  });

  it('never lists the caller nor standby duties', async () => {
    const flight = freshFlight();
    const me = await crewPilot(service());
    await me.addTrip({ ...flight, route: 'MCO', startDate: '2026-11-25', endDate: '2026-11-27' });
    await (await crewPilot(service())).addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-25', endDate: '2026-11-25' });
    expect(((await search(me, { date: '2026-11-25', flightNumber: flight.flightNoStart })).body as UsualRequestsResponse).results).toEqual([]);
  });
});

describe('GET /api/stats', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  it("counts the caller's trips (total, upcoming, offered, kept, standby, uploaded, next start) and the community", async () => {
    service.clock.set('2026-11-15T12:00:00Z');
    const me = await crewPilot(service);
    await me.addTrip({ ...freshFlight(), startDate: '2026-11-10', endDate: '2026-11-12' });
    await me.addTrip({ ...freshFlight(), startDate: '2026-11-20', endDate: '2026-11-22', isSwappable: true, source: 'upload' });
    await me.addTrip({ ...freshFlight(), startDate: '2026-11-25', endDate: '2026-11-27', requested: true });
    await me.addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-30', endDate: '2026-11-30' });
    const other = await crewPilot(service, { usualReq: false });
    await other.addTrip({ ...freshFlight(), startDate: '2026-11-21', endDate: '2026-11-22', isSwappable: true });

    const answer = await me.get('/api/stats');
    expect(answer.status).toBe(200);
    expect(answer.body as PilotStats).toEqual({
      today: '2026-11-15',
      myTrips: { total: 4, upcoming: 3, offered: 1, kept: 1, standby: 1, uploaded: 1, nextTripDate: '2026-11-20' },
      community: { pilots: 2, masterRosterPilots: 1, upcomingTrips: 4, offeredTrips: 2, activeWhatsappGroups: 0 },
    });
    expect((await service.app.inject({ method: 'GET', url: '/api/stats' })).statusCode).toBe(401);
  });
});
