/**
 * A trip's duty times and what they make it worth (issue 55): typed trips may give report and
 * release times, imported ones keep the roster's check-in, check-out and sectors; block, duty,
 * nights away and landings are derived from them, and are null without them.
 */
import { requestRpc } from '@crewswap/kit';
import { ImportTripsReply, RPC, SUBJECTS, TRIP_TIME_MESSAGES, type Trip } from '@crewswap/proto';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('trips: duty times and the value of a trip', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  async function newPilot() {
    const pilot = await registerPilot(service, makePilot());
    const cookies = pilotCookie(pilot.id);
    const post = (body: Record<string, unknown>) => service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: body });
    const patch = (id: string, body: Record<string, unknown>) => service.app.inject({ method: 'PATCH', url: `/api/trips/${id}`, cookies, payload: body });
    const list = async () => (await service.app.inject({ method: 'GET', url: '/api/trips', cookies })).json() as Trip[];
    return { pilot, post, patch, list };
  }

  it('Add Trip without report and release times: the times and the derived value are null, nights from the dates', async () => {
    const { post } = await newPilot();
    const response = await post(tripBody({ startDate: '2026-11-10', endDate: '2026-11-12' }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ reportAt: null, releaseAt: null, sectors: null, blockMinutes: null, dutyMinutes: null, landings: null, nightsAway: 2 });
  });

  it('Add Trip with report and release times: stored as UTC instants, duty derived from them', async () => {
    const { post, list } = await newPilot();
    // A typed trip's times tell its duty, not its flying: block and landings stay unknown.
    const response = await post(tripBody({ startDate: '2026-11-10', endDate: '2026-11-10', reportAt: '2026-11-10T08:00:00+01:00', releaseAt: '2026-11-10T19:30:00Z' }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ reportAt: '2026-11-10T07:00:00Z', releaseAt: '2026-11-10T19:30:00Z', dutyMinutes: 750, blockMinutes: null, landings: null });
    expect((await list())[0]).toMatchObject({ reportAt: '2026-11-10T07:00:00Z', releaseAt: '2026-11-10T19:30:00Z', dutyMinutes: 750 });
  });

  it.each([
    ['release before report', { reportAt: '2026-11-10T10:00:00Z', releaseAt: '2026-11-10T09:00:00Z' }, TRIP_TIME_MESSAGES.releaseBeforeReport],
    ['report two days before the trip', { reportAt: '2026-11-08T10:00:00Z' }, TRIP_TIME_MESSAGES.outsideDates],
    ['release two days after the trip', { releaseAt: '2026-11-14T10:00:00Z' }, TRIP_TIME_MESSAGES.outsideDates],
  ])('Add Trip refuses %s', async (_, times, message) => {
    const { post } = await newPilot();
    const response = await post(tripBody({ startDate: '2026-11-10', endDate: '2026-11-12', ...times }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
  });

  it('Add Trip takes a report the evening before the first day (a day either side)', async () => {
    const { post } = await newPilot();
    expect((await post(tripBody({ startDate: '2026-11-10', endDate: '2026-11-12', reportAt: '2026-11-09T21:00:00Z' }))).statusCode).toBe(201);
  });

  it('Edit Trip sets, keeps and clears the times; the trip event carries them', async () => {
    const { post, patch } = await newPilot();
    const trip = (await post(tripBody({ startDate: '2026-11-10', endDate: '2026-11-10' }))).json() as Trip;
    const set = await patch(trip.id, { reportAt: '2026-11-10T06:00:00Z', releaseAt: '2026-11-10T16:00:00Z' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ reportAt: '2026-11-10T06:00:00Z', releaseAt: '2026-11-10T16:00:00Z', dutyMinutes: 600 });
    const kept = await patch(trip.id, { route: 'BOS' });
    expect(kept.json()).toMatchObject({ reportAt: '2026-11-10T06:00:00Z', dutyMinutes: 600 });
    expect((await patch(trip.id, { releaseAt: '2026-11-10T05:00:00Z' })).json().error).toBe(TRIP_TIME_MESSAGES.releaseBeforeReport);
    const cleared = await patch(trip.id, { reportAt: null, releaseAt: null });
    expect(cleared.json()).toMatchObject({ reportAt: null, releaseAt: null, dutyMinutes: null });
    const rows: { envelope: { data: { trip: Trip } } }[] = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripUpdated });
    const events = rows.map((row) => row.envelope.data.trip).filter((event) => event.id === trip.id);
    expect(events[0]).toMatchObject({ reportAt: '2026-11-10T06:00:00Z', releaseAt: '2026-11-10T16:00:00Z' });
  });

  it('an imported trip keeps its check-in, check-out and sectors: block counts operated sectors, landings too; a re-import with times it lacked stores them', async () => {
    const { pilot, list } = await newPilot();
    const roster = {
      flightNoStart: 'VS127',
      flightNoEnd: 'VS128',
      aircraft: 'A330' as const,
      route: 'JFK',
      startDate: '2026-11-04',
      endDate: '2026-11-06',
      icsDescription: null,
    };
    const times = {
      reportAt: '2026-11-04T08:30:00Z',
      releaseAt: '2026-11-06T08:20:00Z',
      sectors: [
        { flightNo: 'VS127', from: 'MAN', to: 'JFK', departAt: '2026-11-04T10:30:00Z', arriveAt: '2026-11-04T18:50:00Z', positioning: false },
        { flightNo: 'AA100', from: 'JFK', to: 'BOS', departAt: '2026-11-05T12:00:00Z', arriveAt: '2026-11-05T13:00:00Z', positioning: true },
        { flightNo: 'VS128', from: 'BOS', to: 'MAN', departAt: '2026-11-06T00:30:00Z', arriveAt: '2026-11-06T07:50:00Z', positioning: false },
      ],
    };
    const ask = (trips: unknown[]) => requestRpc(service.runtime.bus, RPC.importTrips, { pilotId: pilot.id, trips }, ImportTripsReply);
    expect((await ask([roster])).processedCount).toBe(1);
    expect((await list())[0]).toMatchObject({ reportAt: null, sectors: null, blockMinutes: null });

    const again = await ask([{ ...roster, ...times }]);
    expect(again).toMatchObject({ processedCount: 0, duplicateCount: 1, changes: [] });
    const [stored] = await list();
    expect(stored).toMatchObject({ reportAt: times.reportAt, releaseAt: times.releaseAt, sectors: times.sectors, blockMinutes: 500 + 440, landings: 2 });
    // Three duties, split by the layover and the positioning day: check-in to VS127's arrival plus
    // the release allowance (650 min), the positioning flight with both allowances (150), VS128's
    // report allowance to check-out (530).
    expect(stored!.dutyMinutes).toBe(650 + 150 + 530);
  });
});
