/**
 * The rosters the flight time limitations check reads, kept in memory once read (issue 55's
 * budget): the same roster comes back without a read until the pilot's trips or base change, and
 * a change committed is never hidden behind a roster read before it.
 */
import pino from 'pino';
import type { Pilot, Trip } from '@crewswap/proto';
import { startRosterCache, type RosterCache } from '../src/data/roster-cache';
import type { PilotChange, TripChange } from '../src/data/read-model';
import { makePilot, makeTrip, startHarness, type Harness } from './helpers';

const stamp = (version: number) => ({ version, at: new Date('2026-10-01T00:00:00Z') });

describe('rosters held for the flight time limitations check', () => {
  let h: Harness;
  let cache: RosterCache;
  let reads: string[][];
  /** Lets a test hold a read until it has changed the tables. */
  let beforeRead: () => Promise<void>;

  async function start(maxPilots = 100) {
    cache = await startRosterCache({
      db: h.db,
      connectionString: h.config.DATABASE_URL,
      log: pino({ level: 'silent' }),
      maxPilots,
      read: async (ids) => {
        reads.push([...ids].sort());
        await beforeRead();
        return h.service.readModel.rosters(ids);
      },
    });
  }

  async function pilotWith(...trips: Partial<Trip>[]): Promise<{ pilot: Pilot; trips: Trip[] }> {
    const pilot = makePilot({ base: 'LHR' });
    await h.service.readModel.applyPilotChanges(h.db, [{ kind: 'profile', pilot, stamp: stamp(1) } satisfies PilotChange]);
    const made = trips.map((overrides) => makeTrip(pilot, overrides));
    await save(made);
    return { pilot, trips: made };
  }

  async function save(trips: Trip[], version = 1) {
    await h.service.readModel.applyTripChanges(h.db, trips.map((trip): TripChange => ({ kind: 'trip', trip, stamp: stamp(version) })));
    await cache.catchUp();
  }

  const ids = async (pilotId: string) => (await cache.rosters([pilotId])).get(pilotId)?.roster.map((trip) => trip.id) ?? [];

  beforeEach(async () => {
    h = await startHarness();
    reads = [];
    beforeRead = async () => undefined;
    await start();
  });
  afterEach(async () => {
    await cache.close();
    await h.close();
  });

  it('reads a roster once and then gives the same one from memory', async () => {
    const { pilot, trips } = await pilotWith({ startDate: '2026-12-01' }, { startDate: '2026-12-10' });
    const first = await cache.rosters([pilot.id]);
    const second = await cache.rosters([pilot.id]);
    expect(first.get(pilot.id)!.roster.map((trip) => trip.id)).toEqual(trips.map((trip) => trip.id));
    expect(second.get(pilot.id)).toBe(first.get(pilot.id));
    expect(cache.held(pilot.id)).toBe(first.get(pilot.id));
    expect(reads).toEqual([[pilot.id]]);
  });

  it("reads a pilot's roster again once one of their trips is added, changed or deleted", async () => {
    const { pilot, trips } = await pilotWith({ startDate: '2026-12-01' });
    expect(await ids(pilot.id)).toEqual([trips[0]!.id]);
    const added = makeTrip(pilot, { startDate: '2026-12-20' });
    await save([added]);
    expect(cache.held(pilot.id)).toBeUndefined();
    expect(await ids(pilot.id)).toEqual([trips[0]!.id, added.id]);
    await save([{ ...added, startDate: '2026-11-20', endDate: '2026-11-22' }], 2);
    expect(await ids(pilot.id)).toEqual([added.id, trips[0]!.id]);
    await h.service.readModel.applyTripChanges(h.db, [{ kind: 'deleted', tripId: added.id, pilotId: pilot.id, stamp: stamp(3) }]);
    await cache.catchUp();
    expect(await ids(pilot.id)).toEqual([trips[0]!.id]);
    expect(reads).toHaveLength(4);
  });

  it('forgets both rosters when a trip changes hands, and only theirs', async () => {
    const giver = await pilotWith({ startDate: '2026-12-01' });
    const taker = await pilotWith({ startDate: '2026-12-10' });
    const bystander = await pilotWith({ startDate: '2026-12-05' });
    await cache.rosters([giver.pilot.id, taker.pilot.id, bystander.pilot.id]);
    await h.db('trips').where({ id: giver.trips[0]!.id }).update({ pilot_id: taker.pilot.id });
    await cache.catchUp();
    expect(cache.held(giver.pilot.id)).toBeUndefined();
    expect(cache.held(taker.pilot.id)).toBeUndefined();
    expect(cache.held(bystander.pilot.id)).toBeDefined();
    expect(await ids(taker.pilot.id)).toEqual([giver.trips[0]!.id, taker.trips[0]!.id]);
    expect(await ids(giver.pilot.id)).toEqual([]);
  });

  it("forgets a roster when the pilot's base changes: the rest minimum at home follows it", async () => {
    const { pilot } = await pilotWith({ startDate: '2026-12-01' });
    expect((await cache.rosters([pilot.id])).get(pilot.id)!.base).toBe('LHR');
    await h.service.readModel.applyPilotChanges(h.db, [{ kind: 'profile', pilot: { ...pilot, base: 'MAN' }, stamp: stamp(2) }]);
    await cache.catchUp();
    expect((await cache.rosters([pilot.id])).get(pilot.id)!.base).toBe('MAN');
  });

  it('never keeps a roster read while a change arrived: the next request reads it again', async () => {
    const { pilot } = await pilotWith({ startDate: '2026-12-01' });
    const added = makeTrip(pilot, { startDate: '2026-12-20' });
    // The read starts, then a change commits and its notice is applied before the read ends.
    beforeRead = async () => {
      beforeRead = async () => undefined;
      await save([added]);
    };
    await cache.rosters([pilot.id]);
    expect(cache.held(pilot.id)).toBeUndefined();
    expect(await ids(pilot.id)).toContain(added.id);
    expect(cache.held(pilot.id)).toBeDefined();
  });

  it('holds at most its number of rosters, letting the least recently used go', async () => {
    await cache.close();
    await start(2);
    const [a, b, c] = [await pilotWith({}), await pilotWith({}), await pilotWith({})];
    await cache.rosters([a.pilot.id, b.pilot.id]);
    await cache.rosters([a.pilot.id]);
    await cache.rosters([c.pilot.id]);
    expect(cache.status().pilots).toBe(2);
    expect(cache.held(a.pilot.id)).toBeDefined();
    expect(cache.held(b.pilot.id)).toBeUndefined();
    expect(cache.held(c.pilot.id)).toBeDefined();
  });

  it('serves nothing from memory once it stops listening: every request reads', async () => {
    const { pilot } = await pilotWith({});
    await cache.rosters([pilot.id]);
    await cache.close();
    expect(cache.held(pilot.id)).toBeUndefined();
    await cache.rosters([pilot.id]);
    expect(reads).toHaveLength(2);
  });
});
