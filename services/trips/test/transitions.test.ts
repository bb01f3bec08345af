import { serveRpc } from '@crewswap/kit';
import { RPC, SUBJECTS, type Trip } from '@crewswap/proto';
import { z } from 'zod';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('swap offer, keep and description transitions', () => {
  let service: TestService;
  beforeAll(async () => {
    // The real settings client: admin's contract is answered below by this test.
    service = await startTestService({ settings: undefined });
    serveRpc({ bus: service.runtime.bus, log: service.runtime.log, subject: RPC.getSettings, request: z.object({}), handle: async () => ({ swap_search_days: '2' }) });
  });
  afterAll(async () => {
    await service.stop();
  });

  async function tripOf(overrides: Parameters<typeof makePilot>[0] = {}, body: Record<string, unknown> = {}) {
    const pilot = await registerPilot(service, makePilot(overrides));
    const cookies = pilotCookie(pilot.id);
    const trip = (await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody(body) })).json() as Trip;
    const patch = (suffix: string, payload: Record<string, unknown>) =>
      service.app.inject({ method: 'PATCH', url: `/api/trips/${trip.id}/${suffix}`, cookies, payload });
    return { trip, patch };
  }

  const eventsFor = async (subject: string, tripId: string) =>
    ((await service.runtime.db('outbox').where({ subject })) as { envelope: { data: { trip: Trip } } }[]).filter(
      (row) => row.envelope.data.trip.id === tripId,
    );

  it('pressing Swap offers the trip, clears Keep and publishes trips.trip.offered', async () => {
    const { trip, patch } = await tripOf({}, { requested: true });
    expect(trip.requested).toBe(true);
    const offered = await patch('swappable', { isSwappable: true, swapDescription: 'Any East Coast trip' });
    expect(offered.statusCode).toBe(200);
    expect(offered.json()).toMatchObject({ isSwappable: true, requested: false, swapDescription: 'Any East Coast trip' });
    expect(await eventsFor(SUBJECTS.tripOffered, trip.id)).toHaveLength(1);
    expect((await eventsFor(SUBJECTS.tripUpdated, trip.id)).at(-1)?.envelope.data.trip).toMatchObject({ isSwappable: true });
  });

  it('offering with skipNotification publishes no offer; cancelling the offer sets not offered', async () => {
    const { trip, patch } = await tripOf();
    expect((await patch('swappable', { isSwappable: true, skipNotification: true })).json().isSwappable).toBe(true);
    expect(await eventsFor(SUBJECTS.tripOffered, trip.id)).toHaveLength(0);
    const cancelled = await patch('swappable', { isSwappable: false });
    expect(cancelled.json()).toMatchObject({ isSwappable: false, requested: false });
  });

  it('turning Keep on clears the offer and the search range dates; turning it off keeps the rest', async () => {
    const { patch } = await tripOf();
    await patch('swappable', { isSwappable: true, searchStartDate: '2026-11-09', searchEndDate: '2026-11-11' });
    const kept = await patch('requested', { requested: true });
    expect(kept.json()).toMatchObject({ requested: true, isSwappable: false, searchStartDate: null, searchEndDate: null });
    const unkept = await patch('requested', { requested: false });
    expect(unkept.json()).toMatchObject({ requested: false, isSwappable: false });
  });

  it('keep through the swappable route also clears the offer and the search range', async () => {
    const { patch } = await tripOf();
    await patch('swappable', { isSwappable: true, searchStartDate: '2026-11-08' });
    const kept = await patch('swappable', { isSwappable: false, requested: true });
    expect(kept.json()).toMatchObject({ requested: true, isSwappable: false, searchStartDate: null, searchEndDate: null });
  });

  it('the search range lies within the swap_search_days window of the trip start, To not before From', async () => {
    const { patch } = await tripOf();
    // swap_search_days is 2 here (answered by the admin contract above); the trip starts 2026-11-10.
    expect((await patch('swappable', { isSwappable: true, searchStartDate: '2026-11-08', searchEndDate: '2026-11-12' })).statusCode).toBe(200);
    const early = await patch('swappable', { isSwappable: true, searchStartDate: '2026-11-07' });
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toBe('Search dates must be within 2 days of the trip start date.');
    const reversed = await patch('swappable', { isSwappable: true, searchStartDate: '2026-11-11', searchEndDate: '2026-11-09' });
    expect(reversed.json().error).toBe('The search end date cannot be before the search start date.');
  });

  it("a pilot's own searchDayRange overrides the setting", async () => {
    const { patch } = await tripOf({ searchDayRange: 6 });
    expect((await patch('swappable', { isSwappable: true, searchStartDate: '2026-11-04', searchEndDate: '2026-11-16' })).statusCode).toBe(200);
    expect((await patch('swappable', { isSwappable: true, searchEndDate: '2026-11-17' })).json().error).toBe(
      'Search dates must be within 6 days of the trip start date.',
    );
  });

  it('the swap description saves on its own, at most 100 characters; empty clears it', async () => {
    const { trip, patch } = await tripOf();
    expect((await patch('description', { swapDescription: 'Prefer a BOS' })).json().swapDescription).toBe('Prefer a BOS');
    const long = await patch('description', { swapDescription: 'y'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe('Swap description cannot exceed 100 characters');
    expect((await patch('description', { swapDescription: '   ' })).json().swapDescription).toBeNull();
    expect(await eventsFor(SUBJECTS.tripUpdated, trip.id)).toHaveLength(2);
  });
});
