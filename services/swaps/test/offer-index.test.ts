import { createTestDatabase, eventually } from '@crewswap/kit-testing';
import { addDays, type Aircraft, type Fleet, type Pilot, type Rank, type Trip } from '@crewswap/proto';
import { startOfferIndex } from '../src/data/offer-index';
import { daySpans, overlapsAny } from '../src/data/offer-index/buckets';
import type { PilotChange, TripChange } from '../src/data/read-model';
import { makePilot, makeTrip, QUERY_DEFAULTS, startHarness, TODAY, type Harness } from './helpers';

const stamp = { version: 1, at: new Date('2026-10-01T00:00:00Z') };
const FLEETS: Fleet[] = ['A330', 'A350', 'B787', 'SFF'];

/** A small airline with a fixed seed: every rank, fleet, LTC and training case, many shared dates. */
function airline(pilotCount: number): { pilots: Pilot[]; trips: Trip[] } {
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pilots: Pilot[] = [];
  const trips: Trip[] = [];
  for (let n = 0; n < pilotCount; n += 1) {
    const rank: Rank = random() < 0.5 ? 'CP' : 'FO';
    const fleet = FLEETS[Math.floor(random() * FLEETS.length)]!;
    const pilot = makePilot({ rank, fleet, ltc: rank === 'CP' && random() < 0.3 });
    pilots.push(pilot);
    let day = addDays(TODAY, Math.floor(random() * 4));
    for (let t = 0; t < 8; t += 1) {
      const aircraft: Aircraft = fleet === 'SFF' ? (['A330', 'A350', 'SFF'] as const)[Math.floor(random() * 3)]! : fleet;
      // Start and length from a few values, so that many offers share dates and tie on them.
      const length = 1 + Math.floor(random() * 3);
      trips.push(
        makeTrip(pilot, {
          aircraft,
          startDate: day,
          endDate: addDays(day, length - 1),
          isSwappable: random() < 0.6,
          training: pilot.ltc && random() < 0.3,
          swapDescription: random() < 0.3 ? 'Anything similar, ünïcode welcome' : null,
        }),
      );
      day = addDays(day, length + Math.floor(random() * 2));
    }
  }
  return { pilots, trips };
}

async function load(h: Harness, pilots: Pilot[], trips: Trip[]): Promise<void> {
  const { db } = h.service.runtime;
  await h.service.readModel.applyPilotChanges(db, pilots.map((pilot): PilotChange => ({ kind: 'profile', pilot, stamp })));
  // A statement per 50 trips: each notice names its ids (larger statements ask for a reload).
  for (let i = 0; i < trips.length; i += 50) {
    await h.service.readModel.applyTripChanges(db, trips.slice(i, i + 50).map((trip): TripChange => ({ kind: 'trip', trip, stamp })));
  }
  await h.service.offers.catchUp();
}

describe('the offer index: Find swaps from memory', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers byte for byte what the offers query answers, for every asker and window', async () => {
    const { pilots, trips } = airline(120);
    await load(h, pilots, trips);
    expect(h.service.offers.status()).toEqual({ offers: trips.filter((trip) => trip.isSwappable).length, ready: true });
    const byId = new Map(pilots.map((pilot) => [pilot.id, pilot]));
    let compared = 0;
    let nonEmpty = 0;
    for (const trip of trips.filter((_, i) => i % 3 === 0)) {
      const asker = byId.get(trip.pilotId)!;
      for (const window of [
        { from: addDays(trip.startDate, -4), to: addDays(trip.endDate, 4) },
        { from: trip.startDate, to: trip.startDate },
        { from: addDays(trip.startDate, -10), to: addDays(trip.startDate, 10) },
      ]) {
        const query = { asker, trip: { ...trip, aircraft: trip.aircraft! }, window, ...QUERY_DEFAULTS };
        const fromMemory = h.service.offers.find(query)!.json;
        const fromPostgres = await h.service.readModel.findOffersJson(query);
        expect(fromMemory.toString()).toBe(fromPostgres);
        compared += 1;
        if (fromPostgres !== '[]') nonEmpty += 1;
      }
    }
    // The comparison means something only if most answers hold offers, same dates among them.
    expect(compared).toBeGreaterThan(300);
    expect(nonEmpty / compared).toBeGreaterThan(0.8);
  });

  it('takes an offer made, withdrawn or deleted as soon as the change commits', async () => {
    const me = await h.register({ fleet: 'A350' });
    const mine = await h.addTrip(me, { startDate: addDays(TODAY, 40) });
    const them = await h.register({ fleet: 'A350' });
    const offer = await h.addTrip(them, { startDate: addDays(TODAY, 41), isSwappable: true });
    expect(await h.matchIds(me, mine.id)).toEqual([offer.id]);

    await h.service.readModel.applyTripChanges(h.service.runtime.db, [{ kind: 'trip', trip: { ...offer, isSwappable: false }, stamp: { ...stamp, version: 2 } }]);
    await h.service.offers.catchUp();
    expect(await h.matchIds(me, mine.id)).toEqual([]);

    await h.service.readModel.applyTripChanges(h.service.runtime.db, [{ kind: 'trip', trip: { ...offer, isSwappable: true }, stamp: { ...stamp, version: 3 } }]);
    await h.service.offers.catchUp();
    expect(await h.matchIds(me, mine.id)).toEqual([offer.id]);

    await h.service.readModel.applyTripChanges(h.service.runtime.db, [{ kind: 'deleted', tripId: offer.id, pilotId: them.id, stamp: { ...stamp, version: 4 } }]);
    await h.service.offers.catchUp();
    expect(await h.matchIds(me, mine.id)).toEqual([]);
    expect(h.service.offers.status().offers).toBe(0);
  });

  it('takes a statement that changes more offers than one notice can name, and a truncate', async () => {
    const pilot = makePilot({ fleet: 'B787' });
    const trips = Array.from({ length: 450 }, (_, i) => makeTrip(pilot, { startDate: addDays(TODAY, 2 * i), endDate: addDays(TODAY, 2 * i), isSwappable: true }));
    const { db } = h.service.runtime;
    await h.service.readModel.applyPilotChanges(db, [{ kind: 'profile', pilot, stamp }]);
    await h.service.readModel.applyTripChanges(db, trips.map((trip): TripChange => ({ kind: 'trip', trip, stamp })));
    await h.service.offers.catchUp();
    expect(h.service.offers.status()).toEqual({ offers: 450, ready: true });
    await db.raw('TRUNCATE offers');
    await h.service.offers.catchUp();
    expect(h.service.offers.status()).toEqual({ offers: 0, ready: true });
  });

  it('answers from Postgres while its listening connection is lost, then loads afresh', async () => {
    const me = await h.register({ fleet: 'B787' });
    const mine = await h.addTrip(me, { startDate: addDays(TODAY, 60) });
    const them = await h.register({ fleet: 'B787' });
    const first = await h.addTrip(them, { startDate: addDays(TODAY, 60), isSwappable: true });
    const { db } = h.service.runtime;

    await db.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`);
    await eventually(() => !h.service.offers.status().ready, 5000);
    // An offer made while the index is blind: Postgres answers it.
    const second = await h.addTrip(them, { startDate: addDays(TODAY, 61), isSwappable: true });
    expect(await h.matchIds(me, mine.id)).toEqual([first.id, second.id]);

    await eventually(() => h.service.offers.status().ready, 10_000);
    expect(h.service.offers.status().offers).toBe(2);
    expect(h.service.offers.find({ asker: { ...me }, trip: { ...mine, aircraft: 'B787' }, window: { from: mine.startDate, to: addDays(mine.startDate, 4) }, ...QUERY_DEFAULTS })!.json.toString()).toBe(
      await h.service.readModel.findOffersJson({ asker: { ...me }, trip: { ...mine, aircraft: 'B787' }, window: { from: mine.startDate, to: addDays(mine.startDate, 4) }, ...QUERY_DEFAULTS }),
    );
  });

  it('stops answering from memory when its notices stop arriving, though the connection stays up', async () => {
    // A listener that reaches another database than the writers (as through a transaction
    // pooler) hears nothing: the heartbeat's barrier does not come back.
    const elsewhere = await createTestDatabase();
    const blind = await startOfferIndex({ db: h.service.runtime.db, connectionString: elsewhere.url, log: h.service.runtime.log, heartbeatMs: 200 });
    try {
      expect(blind.status().ready).toBe(true);
      await eventually(() => !blind.status().ready, 5000);
      const me = makePilot();
      expect(blind.find({ asker: me, trip: { ...makeTrip(me), aircraft: 'A350' }, window: { from: TODAY, to: addDays(TODAY, 4) }, ...QUERY_DEFAULTS })).toBeUndefined();
    } finally {
      await blind.close();
      await elsewhere.drop();
    }
  });
});

describe("a pilot's runs of days, as Mutual asks of every row", () => {
  it('tells whether any run shares a day with a trip, in any order, runs overlapping or not', () => {
    // Days 10-12, 20-20, a standby 11-11 inside the first, 30-34; given out of order.
    const spans = daySpans([30, 34, 20, 20, 10, 12, 11, 11]);
    const cases: [number, number, boolean][] = [
      [1, 9, false],
      [9, 10, true],
      [12, 12, true],
      [13, 19, false],
      [19, 21, true],
      [21, 29, false],
      [33, 40, true],
      [35, 50, false],
      [5, 60, true],
    ];
    for (const [from, to, shares] of cases) expect([from, to, overlapsAny(spans, from, to)]).toEqual([from, to, shares]);
    expect(overlapsAny(daySpans([]), 1, 100)).toBe(false);
    // A long run that starts first still counts after a short one that ends earlier.
    expect(overlapsAny(daySpans([1, 50, 5, 6]), 40, 41)).toBe(true);
  });
});
