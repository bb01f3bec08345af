import { HOME_BASES_ONLY_MESSAGE, SUBJECTS, TRIP_MESSAGES as M, type Trip } from '@crewswap/proto';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('trips: add, edit, delete and list own trips', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  async function newPilot(overrides: Parameters<typeof makePilot>[0] = {}) {
    const pilot = await registerPilot(service, makePilot(overrides));
    const cookies = pilotCookie(pilot.id);
    const post = (body: Record<string, unknown>) => service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: body });
    const patch = (id: string, body: Record<string, unknown>, suffix = '') =>
      service.app.inject({ method: 'PATCH', url: `/api/trips/${id}${suffix}`, cookies, payload: body });
    const list = async () => (await service.app.inject({ method: 'GET', url: '/api/trips', cookies })).json() as Trip[];
    return { pilot, cookies, post, patch, list };
  }

  async function outboxEvents(subject: string, tripId: string) {
    const rows: { envelope: { data: { trip?: Trip; tripId?: string }; version: number } }[] = await service.runtime.db('outbox').where({ subject });
    return rows.map((row) => row.envelope).filter((envelope) => (envelope.data.trip?.id ?? envelope.data.tripId) === tripId);
  }

  it('adds a trip, lists own trips sorted by start date and publishes trips.trip.created with the whole trip', async () => {
    const { post, list } = await newPilot();
    const later = await post(tripBody({ flightNoStart: 'VS011', flightNoEnd: 'VS012', route: 'BOS', startDate: '2026-11-20', endDate: '2026-11-22' }));
    expect(later.statusCode).toBe(201);
    const sooner = await post(tripBody());
    expect(sooner.statusCode).toBe(201);
    const trip = sooner.json();
    expect(trip).toMatchObject({
      flightNoStart: 'VS003',
      flightNoEnd: 'VS004',
      route: 'JFK',
      aircraft: 'A350',
      isSwappable: false,
      requested: false,
      training: false,
      companions: null,
      isStandby: false,
      warnings: [],
    });
    expect((await list()).map((t) => t.startDate)).toEqual(['2026-11-10', '2026-11-20']);
    const [created] = await outboxEvents(SUBJECTS.tripCreated, trip.id);
    expect(created?.data.trip).toMatchObject({ id: trip.id, route: 'JFK', startDate: '2026-11-10' });
  });

  it('accepts the includeCrew query and refuses unknown query fields', async () => {
    const { cookies, post } = await newPilot();
    await post(tripBody());
    const withCrew = await service.app.inject({ method: 'GET', url: '/api/trips?includeCrew=true', cookies });
    expect(withCrew.statusCode).toBe(200);
    expect(withCrew.json()).toHaveLength(1);
    expect((await service.app.inject({ method: 'GET', url: '/api/trips?pilotId=someone', cookies })).statusCode).toBe(400);
  });

  it('checks flight numbers: missing one', async () => {
    const { post } = await newPilot();
    const response = await post(tripBody({ flightNoEnd: '' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'Please fill in both start and end flight numbers.' });
  });

  it.each(['VS12', 'VS1234', 'VSABC', 'BA123'])('checks flight numbers: %s is not VS plus exactly 3 digits', async (flight) => {
    const { post } = await newPilot();
    const response = await post(tripBody({ flightNoStart: flight }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Flight numbers must be exactly 3 digits each.', title: 'Invalid Flight Numbers' });
  });

  it('checks the route: each code must be in the IATA database', async () => {
    const { post } = await newPilot();
    const response = await post(tripBody({ route: 'JFK-XQX' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Invalid airport code(s): XQX (not in IATA database)');
    const short = await post(tripBody({ route: 'JF' }));
    expect(short.json().error).toBe('Invalid airport code(s): JF (not in IATA database)');
  });

  it('checks the route: missing, or more than two airports', async () => {
    const { post } = await newPilot();
    expect((await post(tripBody({ route: '' }))).json()).toEqual({ error: 'Please enter the route.', title: 'Missing Information' });
    expect((await post(tripBody({ route: 'JFK-BOS-LAX' }))).json()).toEqual({
      error: 'A route lists at most two airports (e.g. JFK or SEA-LAX).',
      title: 'Route Validation Error',
    });
  });

  it.each([
    ['JF', 'Invalid airport code(s): JF (not in IATA database)'],
    ['jf1', 'Invalid airport code(s): JF1 (not in IATA database)'],
    ['JFK-12', 'Invalid airport code(s): 12 (not in IATA database)'],
    ['JFK LAX', 'Invalid airport code(s): JFK LAX (not in IATA database)'],
    ['JFK-LAX-SFO', M.routeTooLong],
    ['JFK--LAX', M.routeFormat],
    ['JFK-', M.routeFormat],
  ])('refuses route %s (not 3-letter codes joined by one hyphen) on add and on edit, rather than storing part of it', async (route, message) => {
    const { post, patch, list } = await newPilot();
    const added = await post(tripBody({ route }));
    expect([added.statusCode, added.json()]).toEqual([400, { error: message, title: 'Route Validation Error' }]);
    expect(await list()).toEqual([]);
    const trip = (await post(tripBody())).json() as Trip;
    const edited = await patch(trip.id, { route });
    expect([edited.statusCode, edited.json()]).toEqual([400, { error: message, title: 'Route Validation Error' }]);
    expect((await list()).map((t) => t.route)).toEqual(['JFK']);
  });

  it('drops the home bases from a typed route as an import does (LHR-JFK is stored as JFK); home bases alone are refused', async () => {
    const { post, patch } = await newPilot();
    const added = await post(tripBody({ route: 'lhr-jfk' }));
    expect(added.statusCode).toBe(201);
    expect(added.json().route).toBe('JFK');
    expect((await patch(added.json().id, { route: 'SEA-MAN' })).json().route).toBe('SEA');
    expect((await post(tripBody({ route: 'LHR', startDate: '2026-11-20', endDate: '2026-11-21' }))).json()).toEqual({ error: HOME_BASES_ONLY_MESSAGE, title: 'Route Validation Error' });
  });

  it('accepts a two-outstation route, uppercased', async () => {
    const { post } = await newPilot();
    const response = await post(tripBody({ route: ' sea-lax ' }));
    expect(response.statusCode).toBe(201);
    expect(response.json().route).toBe('SEA-LAX');
  });

  it('checks dates: end date cannot be before start date', async () => {
    const { post } = await newPilot();
    const response = await post(tripBody({ startDate: '2026-11-12', endDate: '2026-11-10' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('End date cannot be before start date');
  });

  it('checks dates: trip has already ended', async () => {
    const { post } = await newPilot();
    const response = await post(tripBody({ startDate: '2026-10-28', endDate: '2026-10-31' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Trip has already ended (end date is in the past)');
    // A trip that ends today has not ended.
    expect((await post(tripBody({ startDate: '2026-10-30', endDate: '2026-11-01' }))).statusCode).toBe(201);
  });

  it('refuses a trip whose dates conflict with an existing trip (409)', async () => {
    const { post } = await newPilot();
    expect((await post(tripBody())).statusCode).toBe(201);
    const response = await post(tripBody({ flightNoStart: 'VS025', flightNoEnd: 'VS026', startDate: '2026-11-12', endDate: '2026-11-14' }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('Trip dates conflict with existing trip: VS003/VS004 (11/10/2026 to 11/12/2026)');
  });

  it('warns (and still adds) when the trip is more than 7 days long or more than 8 weeks away', async () => {
    const { post } = await newPilot();
    const long = await post(tripBody({ startDate: '2026-11-10', endDate: '2026-11-17' }));
    expect(long.statusCode).toBe(201);
    expect(long.json().warnings).toEqual(['This trip is more than 7 days long. Please verify the dates are correct.']);
    const far = await post(tripBody({ startDate: '2026-12-28', endDate: '2026-12-30' }));
    expect(far.statusCode).toBe(201);
    expect(far.json().warnings).toEqual(['This trip is more than 8 weeks away. Please verify the dates are correct.']);
    // 56 days away exactly, 7 days of six nights: no warnings.
    const edge = await post(tripBody({ startDate: '2026-12-27', endDate: '2026-12-27' }));
    expect(edge.json().warnings).toEqual([]);
    const week = await post(tripBody({ startDate: '2026-11-20', endDate: '2026-11-26' }));
    expect(week.json().warnings).toEqual([]);
  });

  it('limits companions to none or 1-10, and companions above 0 set requested', async () => {
    const { post } = await newPilot();
    const eleven = await post(tripBody({ companions: 11 }));
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error).toBe('Companions must be between 1 and 10.');
    const two = await post(tripBody({ companions: 2, isSwappable: true }));
    expect(two.statusCode).toBe(201);
    expect(two.json()).toMatchObject({ companions: 2, requested: true, isSwappable: false });
    const none = await post(tripBody({ companions: 0, startDate: '2026-11-20', endDate: '2026-11-21' }));
    expect(none.json()).toMatchObject({ companions: null, requested: false });
  });

  it('limits the swap description to 100 characters', async () => {
    const { post } = await newPilot();
    const response = await post(tripBody({ swapDescription: 'x'.repeat(101) }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Swap description cannot exceed 100 characters');
  });

  it('lets only LTC captains mark a trip as Training', async () => {
    const fo = await newPilot({ rank: 'FO', ltc: false });
    expect((await fo.post(tripBody({ training: true }))).statusCode).toBe(403);
    const captain = await newPilot({ rank: 'CP', ltc: false });
    const refused = await captain.post(tripBody({ training: true }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(M.trainingNotAllowed);
    const ltc = await newPilot({ rank: 'CP', ltc: true });
    const training = await ltc.post(tripBody({ training: true }));
    expect(training.statusCode).toBe(201);
    expect(training.json().training).toBe(true);
  });

  it('Manage Trip changes training (LTC captains only) and companions on a trip', async () => {
    const ltc = await newPilot({ rank: 'CP', ltc: true });
    const trip = (await ltc.post(tripBody())).json() as Trip;
    expect((await ltc.patch(trip.id, { training: true })).json()).toMatchObject({ training: true });
    expect((await ltc.patch(trip.id, { training: false })).json()).toMatchObject({ training: false });
    expect((await ltc.patch(trip.id, { companions: 3 })).json()).toMatchObject({ companions: 3, requested: true });
    expect((await ltc.patch(trip.id, { companions: 0 })).json()).toMatchObject({ companions: null });
    const fo = await newPilot({ rank: 'FO', ltc: false });
    const theirs = (await fo.post(tripBody())).json() as Trip;
    const refused = await fo.patch(theirs.id, { training: true });
    expect([refused.statusCode, refused.json().error]).toEqual([403, M.trainingNotAllowed]);
  });

  it('limits aircraft by fleet: B787, A330 and A350 pilots get their own type, auto-selected', async () => {
    const b787 = await newPilot({ fleet: 'B787' });
    expect((await b787.post(tripBody())).json().aircraft).toBe('B787');
    const refused = await b787.post(tripBody({ aircraft: 'A350', startDate: '2026-11-20', endDate: '2026-11-21' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('A B787 pilot can only add B787 trips.');
  });

  it('limits aircraft by fleet: SFF pilots choose A330, A350 or SFF', async () => {
    const sff = await newPilot({ fleet: 'SFF' });
    const missing = await sff.post(tripBody());
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Please select an aircraft type.');
    expect((await sff.post(tripBody({ aircraft: 'A330' }))).json().aircraft).toBe('A330');
    const refused = await sff.post(tripBody({ aircraft: 'B787', startDate: '2026-11-20', endDate: '2026-11-21' }));
    expect(refused.json().error).toBe('A SFF pilot can only add A330, A350, SFF trips.');
  });

  it('stores standby duties (VS000 with SBY, HSBY, ASBY or RSV) with isStandby and no aircraft', async () => {
    const { post } = await newPilot({ fleet: 'SFF' });
    for (const [route, day] of [['SBY', '05'], ['HSBY', '06'], ['ASBY', '07'], ['RSV', '08']] as const) {
      const response = await post({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route, startDate: `2026-11-${day}`, endDate: `2026-11-${day}`, aircraft: 'A350' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ isStandby: true, aircraft: null, route });
    }
  });

  it('edits a trip: own trip excluded from the conflict check, a clash with another refused', async () => {
    const { post, patch } = await newPilot();
    const first = (await post(tripBody())).json();
    await post(tripBody({ flightNoStart: 'VS011', flightNoEnd: 'VS012', route: 'BOS', startDate: '2026-11-20', endDate: '2026-11-22' }));
    const moved = await patch(first.id, { startDate: '2026-11-11', endDate: '2026-11-13', route: 'lax' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ startDate: '2026-11-11', endDate: '2026-11-13', route: 'LAX', warnings: [] });
    const clash = await patch(first.id, { endDate: '2026-11-20' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('Trip dates conflict with existing trip: VS011/VS012 (11/20/2026 to 11/22/2026)');
  });

  it('edits a trip: missing fields, bad dates, unknown airports and no changes', async () => {
    const { post, patch } = await newPilot();
    const trip = (await post(tripBody())).json();
    const missing = await patch(trip.id, { flightNoStart: '' });
    expect(missing.json()).toEqual({ error: 'Please fill in all required fields before updating the trip.', title: 'Missing Information' });
    const noRoute = await patch(trip.id, { route: '' });
    expect(noRoute.json()).toEqual({ error: 'Please fill in all required fields before updating the trip.', title: 'Missing Information' });
    expect((await patch(trip.id, { flightNoEnd: 'VS04' })).json().error).toBe('Flight numbers must be exactly 3 digits each.');
    expect((await patch(trip.id, { endDate: '2026-11-09' })).json().error).toBe('End date cannot be before start date');
    expect((await patch(trip.id, { startDate: '2026-10-20', endDate: '2026-10-25' })).json().error).toBe('Trip has already ended (end date is in the past)');
    expect((await patch(trip.id, { route: 'XQX' })).json()).toEqual({ error: 'Invalid airport code(s): XQX (not in IATA database)', title: 'Route Validation Error' });
    const nothing = await patch(trip.id, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toEqual({ error: 'No modifications were made to the trip.', title: 'No Changes' });
  });

  it('edits a trip: companions above 0 set requested and clear the offer; an update event carries the trip', async () => {
    const { post, patch } = await newPilot();
    const trip = (await post(tripBody({ isSwappable: true, swapDescription: 'Any JFK' }))).json();
    expect(trip.isSwappable).toBe(true);
    const kept = await patch(trip.id, { companions: 3 });
    expect(kept.json()).toMatchObject({ companions: 3, requested: true, isSwappable: false });
    const [updated] = await outboxEvents(SUBJECTS.tripUpdated, trip.id);
    expect(updated?.data.trip).toMatchObject({ companions: 3, requested: true });
    expect(updated?.version).toBe(2);
  });

  it('deletes a trip and publishes trips.trip.deleted', async () => {
    const { post, cookies, list } = await newPilot();
    const trip = (await post(tripBody())).json();
    const response = await service.app.inject({ method: 'DELETE', url: `/api/trips/${trip.id}`, cookies });
    expect(response.statusCode).toBe(204);
    expect(await list()).toEqual([]);
    const [deleted] = await outboxEvents(SUBJECTS.tripDeleted, trip.id);
    expect(deleted?.data).toMatchObject({ tripId: trip.id });
  });

  it('refuses dates years away as a typo, with one clear message for every date a pilot or a roster brings', async () => {
    const { pilot, post, patch } = await newPilot();
    const outOfRange = { error: 'Dates must be between 11/01/2025 and 11/01/2028. Please check the year.', title: M.dateTitle };
    const edge = await post(tripBody({ startDate: '9999-12-30', endDate: '9999-12-31' }));
    expect([edge.statusCode, edge.json()]).toEqual([400, outOfRange]);
    const farSearch = await post(tripBody({ isSwappable: true, searchStartDate: '2026-11-08', searchEndDate: '9999-12-31' }));
    expect([farSearch.statusCode, farSearch.json()]).toEqual([400, outOfRange]);

    const trip = (await post(tripBody())).json() as Trip;
    const moved = await patch(trip.id, { startDate: '2029-11-10', endDate: '2029-11-12' });
    expect([moved.statusCode, moved.json()]).toEqual([400, outOfRange]);
    // Inside the window of a trip at the end of the calendar, and still years away: the range says why.
    const search = await patch(trip.id, { isSwappable: true, searchStartDate: '9999-12-28', searchEndDate: '9999-12-31' }, '/swappable');
    expect([search.statusCode, search.json()]).toEqual([400, outOfRange]);
    // The edge itself is accepted.
    expect((await post(tripBody({ flightNoStart: 'VS011', startDate: '2028-11-01', endDate: '2028-11-01' }))).statusCode).toBe(201);

    const imported = await service.useCases.importTrips.execute({
      pilotId: pilot.id,
      source: 'upload',
      trips: [{ flightNoStart: 'VS025', flightNoEnd: 'VS026', route: 'BOS', startDate: '9999-12-30', endDate: '9999-12-31', aircraft: null, icsDescription: null }],
    });
    expect(imported).toMatchObject({ processedCount: 0, skipped: [{ reason: outOfRange.error }] });
  });

  it('answers 503 with a clear message when the pilot profile is not in the directory yet', async () => {
    const cookies = pilotCookie('00000000-0000-4000-8000-000000000001');
    const response = await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody() });
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe('Your pilot profile is not ready yet. Please try again in a moment.');
  });
});
