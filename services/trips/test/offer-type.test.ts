import { SUBJECTS, type Trip } from '@crewswap/proto';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

/** Issue 53: a pilot offers a trip as Swap, Give away or Either. */
describe('trips: how a trip is offered (offerType)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  async function newTrip() {
    const pilot = await registerPilot(service, makePilot());
    const cookies = pilotCookie(pilot.id);
    const created = await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody() });
    expect(created.statusCode).toBe(201);
    const trip = created.json() as Trip;
    const offer = (body: Record<string, unknown>) => service.app.inject({ method: 'PATCH', url: `/api/trips/${trip.id}/swappable`, cookies, payload: body });
    const list = async () => (await service.app.inject({ method: 'GET', url: '/api/trips', cookies })).json() as Trip[];
    return { trip, offer, list };
  }

  /** The trip as the last of these events about it carried it. */
  async function lastEvent(subjects: string[], tripId: string): Promise<Trip | undefined> {
    const rows: { envelope: { data: { trip?: Trip } } }[] = await service.runtime.db('outbox').whereIn('subject', subjects).orderBy('seq');
    return rows.map((row) => row.envelope.data.trip).filter((trip) => trip?.id === tripId).at(-1);
  }

  it("a new trip is offered as a swap: 'swap' in its answer and its created event", async () => {
    const { trip } = await newTrip();
    expect(trip.offerType).toBe('swap');
    expect((await lastEvent([SUBJECTS.tripCreated], trip.id))?.offerType).toBe('swap');
  });

  it('offering as a give-away sets it, the trip answers and events carry it, and taking it off offer keeps it', async () => {
    const { trip, offer, list } = await newTrip();
    const given = await offer({ isSwappable: true, offerType: 'giveaway' });
    expect(given.statusCode).toBe(200);
    expect(given.json()).toMatchObject({ isSwappable: true, offerType: 'giveaway' });
    expect((await lastEvent([SUBJECTS.tripOffered], trip.id))?.offerType).toBe('giveaway');

    const off = await offer({ isSwappable: false });
    expect(off.json()).toMatchObject({ isSwappable: false, offerType: 'giveaway' });
    expect((await lastEvent([SUBJECTS.tripUpdated], trip.id))?.offerType).toBe('giveaway');
    expect((await list()).find((item) => item.id === trip.id)?.offerType).toBe('giveaway');

    const either = await offer({ isSwappable: true, offerType: 'either' });
    expect(either.json()).toMatchObject({ isSwappable: true, offerType: 'either' });
  });

  it('an app that sends no offerType changes nothing but the switch (old clients unaffected)', async () => {
    const { trip, offer } = await newTrip();
    await offer({ isSwappable: true, offerType: 'either' });
    const again = await offer({ isSwappable: true, swapDescription: 'Wedding' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ isSwappable: true, offerType: 'either', swapDescription: 'Wedding' });
    expect((await lastEvent([SUBJECTS.tripUpdated, SUBJECTS.tripOffered], trip.id))?.offerType).toBe('either');
  });

  it('refuses an unknown offer type with a clear sentence and changes nothing', async () => {
    const { offer, list, trip } = await newTrip();
    const bad = await offer({ isSwappable: true, offerType: 'sell' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain("offerType must be 'swap', 'giveaway' or 'either'");
    expect((await list()).find((item) => item.id === trip.id)).toMatchObject({ isSwappable: false, offerType: 'swap' });
  });
});
