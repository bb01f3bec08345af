import type { CrewMember, Rank, TripWithCrew } from '@crewswap/proto';
import { crewPilot, crewTestService, freshFlight, type CrewPilot } from './crew-helpers';

describe('Crew on Trip: the other pilots rostered on the same flight and date', () => {
  const service = crewTestService();

  const crewOf = async (caller: CrewPilot, tripId: string) => {
    const answer = await caller.get(`/api/trips/${tripId}/pilots`);
    expect(answer.status).toBe(200);
    return answer.body as CrewMember[];
  };

  it('lists the other pilots on the same flight and start date with rank, names, fleet, ltc, apic, phone and their trip flags', async () => {
    const flight = freshFlight();
    const me = await crewPilot(service(), { rank: 'FO' });
    const mine = await me.addTrip(flight);
    const captain = await crewPilot(service(), { rank: 'CP', firstName: 'Cara', lastName: 'Reid', ltc: true, phone: '+447700900111' });
    const theirs = await captain.addTrip({ ...flight, isSwappable: true, requested: false, training: true, companions: 2 });

    const crew = await crewOf(me, mine.id);
    expect(crew).toEqual([
      {
        id: captain.pilot.id,
        employeeId: captain.pilot.employeeId,
        firstName: 'Cara',
        lastName: 'Reid',
        email: captain.pilot.email,
        phone: '+447700900111',
        rank: 'CP',
        fleet: 'A350',
        base: 'LHR',
        apic: true,
        ltc: true,
        tripId: theirs.id,
        isSwappable: true,
        training: true,
        requested: false,
        companions: 2,
      },
    ]);
  });

  // Ranks are CP or FO (proto's Rank): the directory holds no other, so the answer never carries
  // the SO and JFO the spec's order also names.
  it('sorts the crew CP then FO, each by employee id', async () => {
    const flight = freshFlight();
    const me = await crewPilot(service(), { rank: 'CP', employeeId: '100001' });
    const mine = await me.addTrip(flight);
    const add = async (rank: Rank, employeeId: string) => (await crewPilot(service(), { rank, employeeId })).addTrip(flight);
    await add('FO', '300002');
    await add('CP', '500000');
    await add('FO', '100009');
    await add('CP', '400000');

    const crew = await crewOf(me, mine.id);
    expect(crew.map((member) => `${member.rank} ${member.employeeId}`)).toEqual(['CP 400000', 'CP 500000', 'FO 100009', 'FO 300002']);
  });

  it("shows crew whose Master Roster is off, with phone: 'own-trip visibility is limited to swap offers and same-trip crew'", async () => {
    const flight = freshFlight();
    const off = await crewPilot(service(), { usualReq: false, firstName: 'Offroster', phone: '+447700900222' });
    const offTrip = await off.addTrip({ ...flight, isSwappable: true });
    const on = await crewPilot(service(), { firstName: 'Shown' });
    const onTrip = await on.addTrip(flight);

    expect((await crewOf(on, onTrip.id)).map((member) => [member.firstName, member.phone, member.isSwappable])).toEqual([['Offroster', '+447700900222', true]]);
    // Crew On Trip remains with Master Roster off (pilot-app section 6).
    expect((await crewOf(off, offTrip.id)).map((member) => member.firstName)).toEqual(['Shown']);
    const withCrew = (await on.get('/api/trips?includeCrew=true')).body as TripWithCrew[];
    expect(withCrew.find((trip) => trip.id === onTrip.id)?.crew.map((member) => member.firstName)).toEqual(['Offroster']);
  });

  it('shows a pilot of another fleet flying the same flight (an SFF pilot on an A350 trip)', async () => {
    const flight = freshFlight();
    const me = await crewPilot(service(), { fleet: 'A350' });
    const mine = await me.addTrip(flight);
    const sff = await crewPilot(service(), { fleet: 'SFF', firstName: 'Sam' });
    await sff.addTrip(flight);
    expect((await crewOf(me, mine.id)).map((member) => [member.firstName, member.fleet])).toEqual([['Sam', 'SFF']]);
  });

  it('is not crew: another flight, another start date, a deleted pilot', async () => {
    const flight = freshFlight();
    const me = await crewPilot(service());
    const mine = await me.addTrip(flight);
    await (await crewPilot(service())).addTrip({ ...freshFlight() });
    await (await crewPilot(service())).addTrip({ ...flight, startDate: '2026-11-11', endDate: '2026-11-13' });
    const gone = await crewPilot(service());
    await gone.addTrip(flight);
    await service().repositories.pilots.applyDeletion(gone.pilot.id, gone.pilot.employeeId, new Date().toISOString());
    expect(await crewOf(me, mine.id)).toEqual([]);
  });

  it('standby duties have no crew', async () => {
    const me = await crewPilot(service());
    const standby = await me.addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-20', endDate: '2026-11-20' });
    await (await crewPilot(service())).addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-20', endDate: '2026-11-20' });
    expect(await crewOf(me, standby.id)).toEqual([]);
  });

  it("answers 404 for another pilot's trip and 400 for a malformed id", async () => {
    const me = await crewPilot(service());
    const other = await crewPilot(service());
    const theirs = await other.addTrip(freshFlight());
    expect((await me.get(`/api/trips/${theirs.id}/pilots`)).status).toBe(404);
    expect((await me.get('/api/trips/not-an-id/pilots')).status).toBe(400);
    expect((await service().app.inject({ method: 'GET', url: `/api/trips/${theirs.id}/pilots` })).statusCode).toBe(401);
  });

  it('GET /api/trips?includeCrew=true gives each trip its crew (standby none); without it trips carry no crew', async () => {
    const first = freshFlight();
    const second = freshFlight();
    const me = await crewPilot(service(), { rank: 'FO' });
    await me.addTrip({ ...first, startDate: '2026-11-05', endDate: '2026-11-07' });
    await me.addTrip({ ...second, startDate: '2026-11-15', endDate: '2026-11-17' });
    await me.addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-20', endDate: '2026-11-20' });
    const a = await crewPilot(service(), { rank: 'CP', firstName: 'Ann' });
    await a.addTrip({ ...first, startDate: '2026-11-05', endDate: '2026-11-07' });
    const b = await crewPilot(service(), { rank: 'CP', firstName: 'Ben' });
    await b.addTrip({ ...second, startDate: '2026-11-15', endDate: '2026-11-17' });
    await b.addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-20', endDate: '2026-11-20' });

    const answer = await me.get('/api/trips?includeCrew=true');
    expect(answer.status).toBe(200);
    const trips = answer.body as TripWithCrew[];
    expect(trips.map((trip) => [trip.flightNoStart, trip.crew.map((member) => member.firstName)])).toEqual([
      [first.flightNoStart, ['Ann']],
      [second.flightNoStart, ['Ben']],
      ['VS000', []],
    ]);
    const plain = (await me.get('/api/trips')).body as Record<string, unknown>[];
    expect(plain.every((trip) => !('crew' in trip))).toBe(true);
  });
});
