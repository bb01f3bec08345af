import { eventually } from '@crewswap/kit-testing';
import { SUBJECTS, type Trip, type TripChangeOrigin } from '@crewswap/proto';
import { OFFER_WITHDRAWN_MESSAGE } from '../src/domain/offer-withdrawn';
import { OFFER_VIEWS_DURABLE } from '../src/events/offer-views';
import { makeTrip, startHarness, type Harness } from './helpers';

const ROSTER: TripChangeOrigin = { channel: 'roster_upload' };

describe('Find swaps viewers are told when a roster takes the offer away', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  /** An offer of its owner and two pilots who found it in Find swaps (their views recorded). */
  async function offerSeenByTwo(startDate: string) {
    const owner = await h.register({ rank: 'FO', fleet: 'A350' });
    const offer = await h.addTrip(owner, { startDate, isSwappable: true, flightNoStart: 'VS019', flightNoEnd: 'VS020', route: 'SEA' });
    const viewers = [await h.register({ rank: 'FO', fleet: 'A350' }), await h.register({ rank: 'FO', fleet: 'A350' })];
    for (const viewer of viewers) {
      const mine = await h.addTrip(viewer, { startDate });
      expect(await h.matchIds(viewer, mine.id)).toEqual([offer.id]);
    }
    const bystander = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(bystander, { startDate });
    await eventually(async () => (await h.db('offer_views').where({ trip_id: offer.id })).length === 2);
    return { owner, offer, viewers, bystander };
  }

  const withdrawnPushes = async (tripId: string): Promise<{ pilotId: string; title: string; body: string; kind: string }[]> => {
    const rows: { envelope: { data: { pilotId: string; title: string; body: string; kind: string } } }[] = await h
      .db('outbox')
      .where({ subject: SUBJECTS.sendPush })
      .whereRaw(`envelope->'data'->>'dedupeKey' LIKE ?`, [`offer_withdrawn:${tripId}:%`]);
    return rows.map((row) => row.envelope.data).sort((a, b) => a.pilotId.localeCompare(b.pilotId));
  };
  /** Publishes and waits until the viewers' consumer has taken the event. */
  const seenThrough = async (event: { id: string }) => {
    await eventually(() => h.db('processed_events').where({ consumer: OFFER_VIEWS_DURABLE, event_id: event.id }).first(), 10_000);
  };
  const update = async (trip: Trip, changes: Partial<Trip>, origin: TripChangeOrigin, version = 2) =>
    seenThrough(await h.publish(SUBJECTS.tripUpdated, { trip: { ...trip, ...changes }, origin }, version));

  it("a roster change that withdraws the offer pushes 'A trip you were looking at is no longer offered' to each pilot who found it, and no one else", async () => {
    const { offer, viewers } = await offerSeenByTwo('2026-12-01');
    await update(offer, { isSwappable: false, startDate: '2026-12-02', endDate: '2026-12-05' }, ROSTER);
    const pushes = await withdrawnPushes(offer.id);
    expect(pushes).toEqual(
      viewers
        .map((viewer) => ({ pilotId: viewer.id, kind: 'swap_offer', title: OFFER_WITHDRAWN_MESSAGE, body: 'VS019/VS020 SEA, 2026-12-02 to 2026-12-05' }))
        .sort((a, b) => a.pilotId.localeCompare(b.pilotId))
        .map((push) => expect.objectContaining(push)),
    );
    // Told once: the views are gone with the offer.
    expect(await h.db('offer_views').where({ trip_id: offer.id })).toEqual([]);
  });

  it('a pilot who found offers page by page (limit and cursor, as the app asks) is told of each', async () => {
    const owner = await h.register({ rank: 'FO', fleet: 'A350' });
    const offers = [
      await h.addTrip(owner, { startDate: '2026-12-15', isSwappable: true, flightNoStart: 'VS019', flightNoEnd: 'VS020', route: 'SEA' }),
      await h.addTrip(owner, { startDate: '2026-12-17', isSwappable: true, flightNoStart: 'VS025', flightNoEnd: 'VS026', route: 'LAS' }),
    ];
    const viewer = await h.register({ rank: 'FO', fleet: 'A350' });
    const mine = await h.addTrip(viewer, { startDate: '2026-12-16' });
    type Page = { matches: { trip: { id: string } }[]; nextCursor: string | null };
    const first = (await h.matches(viewer, mine.id, '?limit=1')).json() as Page;
    const second = (await h.matches(viewer, mine.id, `?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`)).json() as Page;
    expect([...first.matches, ...second.matches].map((match) => match.trip.id).sort()).toEqual(offers.map((offer) => offer.id).sort());
    await eventually(async () => (await h.db('offer_views').where({ pilot_id: viewer.id })).length === 2);
    for (const offer of offers) {
      await update(offer, { isSwappable: false }, ROSTER);
      expect(await withdrawnPushes(offer.id)).toEqual([expect.objectContaining({ pilotId: viewer.id, title: OFFER_WITHDRAWN_MESSAGE })]);
    }
  });

  it('a trip the roster no longer has tells its viewers too', async () => {
    const { offer, viewers } = await offerSeenByTwo('2026-12-27');
    await seenThrough(await h.publish(SUBJECTS.tripDeleted, { tripId: offer.id, pilotId: offer.pilotId, trip: offer, origin: { channel: 'roster_email' } }, 2));
    expect((await withdrawnPushes(offer.id)).map((push) => push.pilotId)).toEqual(viewers.map((viewer) => viewer.id).sort());
  });

  it('an offer the pilot withdraws in the app tells nobody (the views are forgotten); a change that keeps it offered keeps them', async () => {
    const { offer } = await offerSeenByTwo('2027-01-22');
    await update(offer, { swapDescription: 'still offered' }, ROSTER);
    expect(await h.db('offer_views').where({ trip_id: offer.id })).toHaveLength(2);
    await update(offer, { isSwappable: false }, { channel: 'app' }, 3);
    expect(await withdrawnPushes(offer.id)).toEqual([]);
    expect(await h.db('offer_views').where({ trip_id: offer.id })).toEqual([]);
  });

  it('a pilot who looks again within the hour leaves the view as it was; an hour on, its time moves', async () => {
    const { views } = h.service.offerViews;
    const pilot = await h.register({ rank: 'FO', fleet: 'A350' });
    const [first, second] = [makeTrip(pilot).id, makeTrip(pilot).id] as const;
    const at = (minutes: number) => new Date(Date.parse('2026-11-20T08:00:00Z') + minutes * 60_000);
    const kept = async () => {
      const rows: { trip_id: string; seen_at: Date }[] = await h.db('offer_views').where({ pilot_id: pilot.id });
      return Object.fromEntries(rows.map((row) => [row.trip_id, row.seen_at.toISOString()]));
    };
    await views.record(pilot.id, [first, first], at(0));
    await views.record(pilot.id, [first, second], at(30));
    expect(await kept()).toEqual({ [first]: at(0).toISOString(), [second]: at(30).toISOString() });
    await views.record(pilot.id, [first, second], at(61));
    expect(await kept()).toEqual({ [first]: at(61).toISOString(), [second]: at(30).toISOString() });
  });

  it('a pilot who finds the same offers again within the hour costs Postgres no statement; a new offer is recorded alone', async () => {
    const { viewers } = await offerSeenByTwo('2027-01-05');
    const viewer = viewers[0]!;
    const [mine] = (await h.db('trips').where({ pilot_id: viewer.id }).select('id')) as { id: string }[];
    const owner = await h.register({ rank: 'FO', fleet: 'A350' });
    const recorded = jest.spyOn(h.service.offerViews.views, 'record');
    try {
      expect(await h.matchIds(viewer, mine!.id)).toHaveLength(1);
      const added = await h.addTrip(owner, { startDate: '2027-01-06', isSwappable: true });
      expect(await h.matchIds(viewer, mine!.id)).toHaveLength(2);
      // Views are recorded in the order they were answered: once the new offer's is in, the look before it has been passed over.
      await eventually(() => recorded.mock.calls.length > 0);
      expect(recorded.mock.calls.map(([pilotId, tripIds]) => [pilotId, tripIds])).toEqual([[viewer.id, [added.id]]]);
    } finally {
      recorded.mockRestore();
    }
  });

  it('an offer withdrawn and offered again is recorded afresh when found again within the hour, so its viewer is told again', async () => {
    const { offer, viewers } = await offerSeenByTwo('2027-01-12');
    const viewer = viewers[0]!;
    const [mine] = (await h.db('trips').where({ pilot_id: viewer.id }).select('id')) as { id: string }[];
    await update(offer, { isSwappable: false }, ROSTER);
    expect((await withdrawnPushes(offer.id)).map((push) => push.pilotId)).toEqual(viewers.map((pilot) => pilot.id).sort());
    await update(offer, { isSwappable: true }, ROSTER, 3);
    await eventually(async () => (await h.matchIds(viewer, mine!.id)).includes(offer.id));
    await eventually(async () => (await h.db('offer_views').where({ trip_id: offer.id, pilot_id: viewer.id })).length === 1);
    await update(offer, { isSwappable: false }, ROSTER, 4);
    expect((await withdrawnPushes(offer.id)).filter((push) => push.pilotId === viewer.id)).toHaveLength(2);
  });

  it('only pilots who found the offer within the last day are told, and older views are pruned', async () => {
    const { offer, viewers } = await offerSeenByTwo('2027-02-16');
    // One viewer looked more than a day ago.
    await h.db('offer_views').where({ trip_id: offer.id, pilot_id: viewers[0]!.id }).update({ seen_at: new Date(h.clock.now().getTime() - 25 * 60 * 60 * 1000) });
    const other = makeTrip(viewers[1]!, { startDate: '2027-02-16' });
    await h.db('offer_views').insert({ trip_id: other.id, pilot_id: viewers[1]!.id, seen_at: new Date(h.clock.now().getTime() - 26 * 60 * 60 * 1000) });
    await update(offer, { isSwappable: false }, ROSTER);
    expect((await withdrawnPushes(offer.id)).map((push) => push.pilotId)).toEqual([viewers[1]!.id]);
    expect(await h.service.offerViews.views.prune(new Date(h.clock.now().getTime() - 24 * 60 * 60 * 1000))).toBe(1);
    expect(await h.db('offer_views').where({ trip_id: other.id })).toEqual([]);
  });
});
