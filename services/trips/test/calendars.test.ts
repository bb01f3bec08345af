import { gunzipSync } from 'node:zlib';
import { CrossoverTripsResponse, MASTER_ROSTER_MESSAGES, MasterCalendarResponse, masterCalendarWindow, PILOT_CONTACT_NOT_FOUND, pilotContactPath, type CrossoverTripGroup, type MasterCalendarEntry } from '@crewswap/proto';
import { crewPilot, crewTestService, freshFlight, type CrewPilot } from './crew-helpers';
import { startTestService, type TestService } from './helpers';

describe('Master Calendar window: the first of this month to the 7th of month+2 (Europe/London)', () => {
  it.each([
    ['2026-11-15', '2026-11-01', '2027-01-07'],
    ['2026-10-31', '2026-10-01', '2026-12-07'],
    ['2026-11-30', '2026-11-01', '2027-01-07'],
    ['2026-12-31', '2026-12-01', '2027-02-07'],
    ['2027-01-01', '2027-01-01', '2027-03-07'],
  ])('on %s it spans %s to %s', (today, from, to) => {
    expect(masterCalendarWindow(today)).toEqual({ from, to });
  });
});

describe('calendars: Master Calendar and Crossover Calendar', () => {
  const service = crewTestService();

  const rows = (entries: MasterCalendarEntry[]) => entries.map((entry) => `${entry.pilot.lastName} ${entry.trip.startDate}`);

  it('answers 403 Not Available to a pilot with Master Roster off', async () => {
    const off = await crewPilot(service(), { usualReq: false });
    for (const url of ['/api/master-calendar/CP/A350', '/api/crossover-trips']) {
      const answer = await off.get(url);
      expect(answer).toEqual({ status: 403, body: { error: MASTER_ROSTER_MESSAGES.notAvailable, title: 'Not Available' } });
    }
  });

  it('tapping a pilot in the Master Calendar opens their contact (name, rank, fleet, email, phone), under the calendars\' visibility rules', async () => {
    const me = await crewPilot(service());
    const shown = await crewPilot(service(), { firstName: 'Cal', lastName: 'Endar', rank: 'CP', fleet: 'A330', phone: '+447700900333' });
    const contact = await me.get(pilotContactPath(shown.pilot.id));
    expect(contact.status).toBe(200);
    expect(contact.body).toEqual({
      id: shown.pilot.id,
      employeeId: shown.pilot.employeeId,
      firstName: 'Cal',
      lastName: 'Endar',
      email: shown.pilot.email,
      phone: '+447700900333',
      rank: 'CP',
      fleet: 'A330',
      base: 'LHR',
      apic: true,
      ltc: false,
    });
    // Master Roster off: not in the calendars, so no contact from them; and the caller needs it on.
    const off = await crewPilot(service(), { usualReq: false });
    expect(await me.get(pilotContactPath(off.pilot.id))).toEqual({ status: 404, body: { error: PILOT_CONTACT_NOT_FOUND } });
    expect((await off.get(pilotContactPath(shown.pilot.id))).status).toBe(403);
    const gone = await crewPilot(service());
    await service().repositories.pilots.applyDeletion(gone.pilot.id, gone.pilot.employeeId, new Date().toISOString());
    expect((await me.get(pilotContactPath(gone.pilot.id))).status).toBe(404);
    expect((await me.get('/api/master-calendar/pilots/not-an-id')).status).toBe(400);
  });

  it("with All Visible off a pilot's trips leave the Master Calendar and Trip Search (not 'all own trips visible'), while they still use them", async () => {
    const flight = freshFlight();
    const me = await crewPilot(service(), { rank: 'FO', fleet: 'B787' });
    await me.addTrip({ ...flight, aircraft: 'B787', route: 'BOS', startDate: '2026-11-10', endDate: '2026-11-12' });
    const hidden = await crewPilot(service(), { rank: 'FO', fleet: 'B787', firstName: 'Hidden', allVisible: false });
    await hidden.addTrip({ ...flight, aircraft: 'B787', route: 'BOS', startDate: '2026-11-10', endDate: '2026-11-12' });
    const shown = await crewPilot(service(), { rank: 'FO', fleet: 'B787', firstName: 'Shown' });
    await shown.addTrip({ ...flight, aircraft: 'B787', route: 'BOS', startDate: '2026-11-10', endDate: '2026-11-12' });
    service().clock.set('2026-11-20T12:00:00Z');

    const calendar = (await me.get('/api/master-calendar/FO/B787')).body as MasterCalendarEntry[];
    expect(calendar.map((entry) => entry.pilot.id)).toContain(me.pilot.id);
    expect(calendar.map((entry) => entry.pilot.id)).not.toContain(hidden.pilot.id);
    const search = (await me.get(`/api/usual-requests/search?date=2026-11-10&flightNumber=${flight.flightNoStart}`)).body as { results: { crew: { id: string }[] }[] };
    const found = search.results.flatMap((result) => result.crew.map((member) => member.id));
    expect(found).toContain(shown.pilot.id);
    expect(found).not.toContain(hidden.pilot.id);
    // Same-trip crew still see them, and they still use the calendars themselves.
    const [myTrip] = (await me.get('/api/trips')).body as { id: string }[];
    expect(((await me.get(`/api/trips/${myTrip!.id}/pilots`)).body as { id: string }[]).map((member) => member.id).sort()).toEqual([hidden.pilot.id, shown.pilot.id].sort());
    expect((await hidden.get('/api/master-calendar/FO/B787')).status).toBe(200);
  });

  it('refuses a rank or fleet that does not exist', async () => {
    const me = await crewPilot(service());
    expect((await me.get('/api/master-calendar/XX/A350')).status).toBe(400);
    expect((await me.get('/api/master-calendar/CP/B747')).status).toBe(400);
  });

  describe('one rank and the pilots who fly the fleet', () => {
    // Pilots of this block are captains; first officers of the same names check the rank filter.
    let me: CrewPilot;
    beforeAll(async () => {
      me = await crewPilot(service(), { rank: 'CP', fleet: 'A330', lastName: 'Zed', firstName: 'Me' });
      await me.addTrip({ ...freshFlight(), aircraft: 'A330', startDate: '2026-11-20', endDate: '2026-11-22' });
      const add = async (fleet: 'A330' | 'A350' | 'SFF' | 'B787', lastName: string, firstName: string, rank: 'CP' | 'FO' = 'CP', usualReq = true) => {
        const pilot = await crewPilot(service(), { rank, fleet, lastName, firstName, usualReq });
        await pilot.addTrip({ ...freshFlight(), startDate: '2026-11-10', endDate: '2026-11-12' });
        return pilot;
      };
      await add('SFF', 'Adams', 'Sue');
      await add('A330', 'Brown', 'Bob');
      await add('A330', 'Abbot', 'Zoe');
      await add('A330', 'Abbot', 'Amy');
      await add('B787', 'Aaron', 'Ben');
      await add('A330', 'Aardvark', 'Fay', 'FO');
      await add('A330', 'Aalto', 'Off', 'CP', false);
    });

    it('answers every caller the same list: the same fleet first, then by fleet, last name and first name', async () => {
      const answer = await me.get('/api/master-calendar/CP/A330');
      expect(answer.status).toBe(200);
      // B787 pilots fly no A330; SFF pilots do (decisions.md). FOs and Master-Roster-off pilots are left out.
      // The caller's own row is where its name puts it: the app shows it first from its own trips.
      expect(rows(answer.body)).toEqual(['Abbot 2026-11-10', 'Abbot 2026-11-10', 'Brown 2026-11-10', 'Zed 2026-11-20', 'Adams 2026-11-10']);
      expect((answer.body as MasterCalendarEntry[]).slice(0, 2).map((entry) => entry.pilot.firstName)).toEqual(['Amy', 'Zoe']);
      const other = await crewPilot(service(), { rank: 'FO', fleet: 'B787' });
      expect((await other.get('/api/master-calendar/CP/A330')).body).toEqual(answer.body);
    });

    it('gives of each entry only what the calendar shows', async () => {
      const [entry] = (await me.get('/api/master-calendar/CP/A330')).body as MasterCalendarEntry[];
      expect(Object.keys(entry!.pilot).sort()).toEqual(['firstName', 'fleet', 'id', 'lastName', 'rank']);
      expect(Object.keys(entry!.trip).sort()).toEqual(['endDate', 'flightNoEnd', 'flightNoStart', 'id', 'isStandby', 'isSwappable', 'requested', 'route', 'startDate', 'training']);
      expect(MasterCalendarResponse.safeParse((await me.get('/api/master-calendar/CP/A330')).body).success).toBe(true);
    });

    it('a B787 calendar shows only B787 pilots', async () => {
      const answer = await me.get('/api/master-calendar/CP/B787');
      expect(rows(answer.body)).toEqual(['Aaron 2026-11-10']);
    });

    it('sends the gzip bytes to a client that accepts them, and 304 to a client holding the same ETag', async () => {
      const url = '/api/master-calendar/CP/A330';
      const plain = await service().app.inject({ method: 'GET', url, cookies: me.cookies });
      const zipped = await service().app.inject({ method: 'GET', url, cookies: me.cookies, headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(plain.json());
      const etag = String(plain.headers.etag);
      expect(zipped.headers.etag).toBe(etag);
      const again = await service().app.inject({ method: 'GET', url, cookies: me.cookies, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // A refusal of gzip by name stands even beside a wildcard.
      for (const refusal of ['gzip;q=0', 'gzip;q=0, *']) {
        const refused = await service().app.inject({ method: 'GET', url, cookies: me.cookies, headers: { 'accept-encoding': refusal } });
        expect(refused.headers['content-encoding']).toBeUndefined();
      }
      // Master Roster off is refused even holding the ETag.
      const off = await crewPilot(service(), { usualReq: false });
      expect((await service().app.inject({ method: 'GET', url, cookies: off.cookies, headers: { 'if-none-match': etag } })).statusCode).toBe(403);
    });
  });

  it.each([
    // [London now, first day inside, last day inside]
    ['2026-11-30T23:30:00Z', '2026-11-01', '2027-01-07'],
    ['2026-12-31T23:30:00Z', '2026-12-01', '2027-02-07'],
    // 23:30 UTC on 31 March is 00:30 on 1 April in London (summer time): April's window.
    ['2027-03-31T23:30:00Z', '2027-04-01', '2027-06-07'],
  ])('at %s the window runs %s to %s: trips touching its first and last days are in, trips outside are not', async (now, from, to) => {
    service().clock.set(now);
    const fleetMate = { rank: 'FO' as const, fleet: 'B787' as const };
    const me = await crewPilot(service(), { ...fleetMate, lastName: 'Mine' });
    const other = await crewPilot(service(), { ...fleetMate, lastName: `Edge${from}` });
    const day = (iso: string, delta: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + delta * 86_400_000).toISOString().slice(0, 10);
    await other.addTrip({ ...freshFlight(), aircraft: 'B787', startDate: day(from, -3), endDate: day(from, -1) });
    await other.addTrip({ ...freshFlight(), aircraft: 'B787', startDate: day(from, -1), endDate: from });
    await other.addTrip({ ...freshFlight(), aircraft: 'B787', startDate: to, endDate: day(to, 2) });
    await other.addTrip({ ...freshFlight(), aircraft: 'B787', startDate: day(to, 1), endDate: day(to, 3) });
    const answer = await me.get('/api/master-calendar/FO/B787');
    expect(answer.status).toBe(200);
    const edge = (answer.body as MasterCalendarEntry[]).filter((entry) => entry.pilot.id === other.pilot.id);
    expect(edge.map((entry) => [entry.trip.startDate, entry.trip.endDate])).toEqual([
      [day(from, -1), from],
      [to, day(to, 2)],
    ]);
  });

  describe('with the calendars kept 15 s (MASTER_CALENDAR_CACHE_MS)', () => {
    let cached: TestService;
    beforeAll(async () => {
      cached = await startTestService({ config: { MASTER_CALENDAR_CACHE_MS: 15_000 } });
    });
    afterAll(async () => {
      await cached.stop();
    });

    it("shows other pilots' changes within 15 s, the same answer to every caller, in the same order", async () => {
      const me = await crewPilot(cached, { rank: 'FO', fleet: 'A330', lastName: 'Self' });
      const bea = await crewPilot(cached, { rank: 'FO', fleet: 'A330', lastName: 'Bea' });
      const amy = await crewPilot(cached, { rank: 'FO', fleet: 'SFF', lastName: 'Amy' });
      await bea.addTrip({ ...freshFlight(), aircraft: 'A330', startDate: '2026-11-10', endDate: '2026-11-12' });
      await amy.addTrip({ ...freshFlight(), aircraft: 'A330', startDate: '2026-11-11', endDate: '2026-11-13' });
      const first = await cached.app.inject({ method: 'GET', url: '/api/master-calendar/FO/A330', cookies: me.cookies });
      expect(rows(first.json())).toEqual(['Bea 2026-11-10', 'Amy 2026-11-11']);

      await me.addTrip({ ...freshFlight(), aircraft: 'A330', startDate: '2026-11-20', endDate: '2026-11-22' });
      await bea.addTrip({ ...freshFlight(), aircraft: 'A330', startDate: '2026-11-25', endDate: '2026-11-27' });
      // Kept: the same bytes and ETag for everyone, Bea included.
      const kept = await cached.app.inject({ method: 'GET', url: '/api/master-calendar/FO/A330', cookies: bea.cookies });
      expect(kept.body).toBe(first.body);
      expect(kept.headers.etag).toBe(first.headers.etag);

      cached.clock.advance(15_000);
      const fresh = await cached.app.inject({ method: 'GET', url: '/api/master-calendar/FO/A330', cookies: me.cookies, headers: { 'if-none-match': String(first.headers.etag) } });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers.etag).not.toBe(first.headers.etag);
      expect(rows(fresh.json())).toEqual(['Bea 2026-11-10', 'Bea 2026-11-25', 'Self 2026-11-20', 'Amy 2026-11-11']);
    });

    it('keeps the crossover groups as long, while each caller still gets only the groups crossing their trips', async () => {
      const me = await crewPilot(cached);
      const mine = await me.addTrip({ ...freshFlight(), route: 'DEN', startDate: '2026-11-10', endDate: '2026-11-12' });
      const crossing = await crewPilot(cached, { firstName: 'Kept' });
      await crossing.addTrip({ ...freshFlight(), route: 'DEN', startDate: '2026-11-11', endDate: '2026-11-13' });
      const names = async (pilot: typeof me) => ((await pilot.get('/api/crossover-trips')).body as CrossoverTripGroup[]).map((group) => [group.pilots.map((one) => one.firstName), group.crossesTripIds]);
      expect(await names(me)).toEqual([[['Kept'], [mine.id]]]);
      // Another pilot's new trip waits for the next build; the caller's own new trip counts at once.
      await (await crewPilot(cached, { firstName: 'Later' })).addTrip({ ...freshFlight(), route: 'DEN', startDate: '2026-11-11', endDate: '2026-11-13' });
      const later = await me.addTrip({ ...freshFlight(), route: 'DEN', startDate: '2026-11-13', endDate: '2026-11-14' });
      expect(await names(me)).toEqual([[['Kept'], [later.id, mine.id].sort()]]);
      cached.clock.advance(15_000);
      expect((await names(me)).map(([pilots]) => pilots).sort()).toEqual([['Kept'], ['Later']]);
    });
  });

  describe('Crossover Calendar', () => {
    it('groups other crews at one of my airports on overlapping dates, with their pilots; my own crew, other airports and other dates are not crossovers', async () => {
      const me = await crewPilot(service(), { lastName: 'Crosser' });
      const myFlight = freshFlight();
      const mine = await me.addTrip({ ...myFlight, route: 'SEA-LAX', startDate: '2026-11-10', endDate: '2026-11-13' });
      // A second trip of mine that nobody crosses.
      await me.addTrip({ ...freshFlight(), route: 'LAX', startDate: '2026-11-20', endDate: '2026-11-22' });
      // My crew: same flight and day.
      await (await crewPilot(service())).addTrip({ ...myFlight, route: 'SEA-LAX', startDate: '2026-11-10', endDate: '2026-11-13' });

      const crossing = freshFlight();
      const fo = await crewPilot(service(), { rank: 'FO', employeeId: '222222', firstName: 'Fern' });
      await fo.addTrip({ ...crossing, route: 'LAX', startDate: '2026-11-12', endDate: '2026-11-14' });
      const cp = await crewPilot(service(), { rank: 'CP', employeeId: '333333', firstName: 'Cato' });
      await cp.addTrip({ ...crossing, route: 'LAX', startDate: '2026-11-12', endDate: '2026-11-14' });
      const off = await crewPilot(service(), { usualReq: false });
      await off.addTrip({ ...crossing, route: 'LAX', startDate: '2026-11-12', endDate: '2026-11-14' });
      const early = freshFlight();
      await (await crewPilot(service(), { firstName: 'Early' })).addTrip({ ...early, route: 'SEA', startDate: '2026-11-08', endDate: '2026-11-10' });
      // Another airport, and the right airport on dates that do not meet.
      await (await crewPilot(service())).addTrip({ ...freshFlight(), route: 'BOS', startDate: '2026-11-10', endDate: '2026-11-13' });
      await (await crewPilot(service())).addTrip({ ...freshFlight(), route: 'LAX', startDate: '2026-11-15', endDate: '2026-11-17' });

      const answer = await me.get('/api/crossover-trips');
      expect(answer.status).toBe(200);
      // Sent ready-made, past the kit's check of answers: checked against the contract here.
      expect(CrossoverTripsResponse.safeParse(answer.body).error).toBeUndefined();
      const groups = answer.body as CrossoverTripGroup[];
      expect(groups.map((group) => [group.flightNumber, group.destination, group.startDate, group.endDate, group.pilots.map((pilot) => pilot.firstName), group.crossesTripIds])).toEqual([
        [early.flightNoStart, 'SEA', '2026-11-08', '2026-11-10', ['Early'], [mine.id]],
        [crossing.flightNoStart, 'LAX', '2026-11-12', '2026-11-14', ['Cato', 'Fern'], [mine.id]],
      ]);
      expect(groups[1]).toMatchObject({ flightNumberEnd: crossing.flightNoEnd, aircraft: 'A350' });
    });

    it('finds a crew whose route has my airport second, and a long trip that started well before mine', async () => {
      const me = await crewPilot(service());
      const mine = await me.addTrip({ ...freshFlight(), route: 'ORD', startDate: '2026-12-10', endDate: '2026-12-12' });
      const second = freshFlight();
      await (await crewPilot(service(), { firstName: 'Second' })).addTrip({ ...second, route: 'BOS-ORD', startDate: '2026-12-11', endDate: '2026-12-14' });
      const long = freshFlight();
      await (await crewPilot(service(), { firstName: 'Long' })).addTrip({ ...long, route: 'ORD', startDate: '2026-11-25', endDate: '2026-12-10' });
      const groups = (await me.get('/api/crossover-trips')).body as CrossoverTripGroup[];
      expect(groups.map((group) => [group.destination, group.pilots.map((pilot) => pilot.firstName), group.crossesTripIds])).toEqual([
        ['ORD', ['Long'], [mine.id]],
        ['BOS-ORD', ['Second'], [mine.id]],
      ]);
    });

    it('leaves out my trips that have ended and standby duties', async () => {
      service().clock.set('2026-11-20T12:00:00Z');
      const me = await crewPilot(service());
      await me.addTrip({ ...freshFlight(), route: 'MIA', startDate: '2026-11-10', endDate: '2026-11-13' });
      await me.addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-25', endDate: '2026-11-25' });
      await (await crewPilot(service())).addTrip({ ...freshFlight(), route: 'MIA', startDate: '2026-11-12', endDate: '2026-11-14' });
      await (await crewPilot(service())).addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-25', endDate: '2026-11-25' });
      expect((await me.get('/api/crossover-trips')).body).toEqual([]);
    });
  });
});
