import { addDays, AIRCRAFT, aircraftFlownBy, FLEETS, isLtcCaptain, OFFER_TYPES, PROPOSAL_MESSAGES, SUBJECTS, tripWindow, type Giveaway, type Pilot, type Trip } from '@crewswap/proto';
import { decodeCursor, shownTripIds } from '../src/rules/match-page';
import { fixedClock } from '@crewswap/kit';
import { createDigestRepository } from '../src/data/digest';
import { createProposalRepository } from '../src/data/proposals';
import { createProposalEvents } from '../src/domain/proposals/events';
import { createSwapSides } from '../src/domain/proposals/sides';
import type { PilotChange, PilotRecord, TripChange } from '../src/data/read-model';
import { isMutual, overlaps, type DayRange, type SwapSide } from '../src/rules/swap-rule';
import { makePilot, makeTrip, startHarness, TODAY, type Harness } from './helpers';

/** A seeded generator (mulberry32): the same seed builds the same airline, ids included. */
function generator(seed: number) {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const below = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;
  const chance = (p: number) => random() < p;
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => below(16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  };
  return { below, pick, chance, uuid };
}

/**
 * An airline where every part of the rule decides something: both ranks, every fleet, LTC
 * captains and LTC first officers (an LTC flag left from a rank change), trips on aircraft their
 * pilot no longer flies (a fleet change), training trips, standby duties, own search ranges and
 * day ranges (some past the 30-day reach), deleted pilots and pilots with swap alerts off, all
 * starting within three weeks of `base`.
 */
function airline(seed: number, base: string) {
  const g = generator(seed);
  const pilots: Pilot[] = [];
  const trips: Trip[] = [];
  for (let n = 0; n < 70; n += 1) {
    const fleet = g.pick(FLEETS);
    const pilot = makePilot({ id: g.uuid(), rank: g.chance(0.5) ? 'CP' : 'FO', fleet, ltc: g.chance(0.3), searchDayRange: g.chance(0.3) ? g.pick([0, 1, 3, 6, 10, 40]) : null });
    pilots.push(pilot);
    for (let t = 0; t < 6; t += 1) {
      const startDate = addDays(base, g.below(21));
      const standby = g.chance(0.1);
      const ranged = g.chance(0.2);
      trips.push(
        makeTrip(pilot, {
          id: g.uuid(),
          startDate,
          endDate: addDays(startDate, g.below(4)),
          aircraft: standby ? null : g.chance(0.8) ? g.pick(aircraftFlownBy(fleet)) : g.pick(AIRCRAFT),
          isStandby: standby,
          isSwappable: g.chance(0.5),
          training: g.chance(pilot.ltc ? 0.4 : 0.05),
          searchStartDate: ranged ? addDays(startDate, g.pick([-40, -9, -2, 0, 35])) : null,
          searchEndDate: ranged ? addDays(startDate, g.pick([-35, 0, 2, 9, 40])) : null,
        }),
      );
    }
  }
  const deleted = new Set(pilots.filter(() => g.chance(0.1)).map((pilot) => pilot.id));
  const alertsOff = new Set(pilots.filter(() => g.chance(0.1)).map((pilot) => pilot.id));
  const settingDays = g.pick([0, 2, 4, 7]);
  const randomWindow = (trip: Trip) => {
    const from = addDays(trip.startDate, g.below(61) - 30);
    return { from, to: addDays(from, g.below(12)) };
  };
  return { pilots, trips, deleted, alertsOff, settingDays, randomWindow };
}

type Row = { trip: { id: string }; mutual: boolean; urgent: boolean; sameDates: boolean };
const offerIds = (answer: string) => (JSON.parse(answer) as Row[]).map((match) => match.trip.id);

async function load(h: Harness, world: ReturnType<typeof airline>): Promise<void> {
  const { db } = h.service.runtime;
  const { readModel } = h.service;
  const stamp = { version: 1, at: new Date('2026-10-01T00:00:00Z') };
  await readModel.applyPilotChanges(db, world.pilots.map((pilot): PilotChange => ({ kind: 'profile', pilot, stamp })));
  const deletions = [...world.deleted].map((pilotId): PilotChange => ({ kind: 'deleted', pilotId, stamp: { ...stamp, version: 2 } }));
  await readModel.applyPilotChanges(db, deletions);
  for (let i = 0; i < world.trips.length; i += 50) {
    await readModel.applyTripChanges(db, world.trips.slice(i, i + 50).map((trip): TripChange => ({ kind: 'trip', trip, stamp })));
  }
  for (const pilotId of world.alertsOff) await readModel.applyAlertPreferences(db, { pilotId, swapAlerts: false, version: 1 });
  await h.service.offers.catchUp();
}

describe('who can swap with whom, written once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  // SWAP_RULE_SEED=n runs one more airline, to try other seeds.
  const seeds = [36, 37, 38, ...(process.env.SWAP_RULE_SEED ? [Number(process.env.SWAP_RULE_SEED)] : [])];

  it(`Find swaps answers the same from memory and from Postgres (Mutual, Urgent and every page included, Mutual as isMutual says), and a swap alert, the daily digest or a proposal goes to exactly the pilots whose trips would find the offer in Find swaps (seeds ${seeds.join(', ')})`, async () => {
    for (const [n, seed] of seeds.entries()) {
      // Each airline 200 days after the last: no window reaches another's trips.
      const base = addDays(TODAY, 10 + 200 * n);
      const world = airline(seed, base);
      await load(h, world);
      const { readModel, offers } = h.service;
      expect(offers.status().ready).toBe(true);

      const askers = new Map<string, PilotRecord>();
      for (const pilot of world.pilots) askers.set(pilot.id, (await readModel.findPilot(pilot.id))!);
      const tripsById = new Map(world.trips.map((trip) => [trip.id, trip]));
      /** A trip's side of a swap as the world holds it, for isMutual: every other trip of its pilot counts. */
      const sideOf = (trip: Trip): SwapSide => ({
        pilot: askers.get(trip.pilotId)!,
        trip,
        otherTrips: world.trips.filter((other) => other.pilotId === trip.pilotId && other.id !== trip.id).map((other): DayRange => ({ from: other.startDate, to: other.endDate })),
      });
      // Urgent: offers starting on the airline's 4th to 6th day.
      const urgent = { from: addDays(base, 3), to: addDays(base, 5) };
      /** For each trip, the offers its Find swaps lists with the trip's own window. */
      const finds = new Map<string, Set<string>>();
      const flagged = { mutual: 0, notMutual: 0, urgent: 0, pages: 0 };
      for (const trip of world.trips) {
        const asker = askers.get(trip.pilotId)!;
        const { askerOtherTrips } = await readModel.findAskContext(trip.id, trip.pilotId);
        const ownWindow = tripWindow(trip, asker.searchDayRange, world.settingDays);
        for (const window of [ownWindow, world.randomWindow(trip)]) {
          const query = { asker, trip, window, askerOtherTrips, settingDays: world.settingDays, urgent, page: null };
          const found = offers.find(query)!;
          const fromMemory = found.json.toString();
          const fromPostgres = await readModel.findOffersJson(query);
          // What the answer shows, for who saw what: the same offers in the same order, from either source.
          expect(found.tripIds).toEqual(shownTripIds(fromPostgres));
          // The offers first, for a readable difference; then every byte, Mutual and Urgent included.
          expect({ seed, trip: trip.id, window, offers: offerIds(fromMemory) }).toEqual({ seed, trip: trip.id, window, offers: offerIds(fromPostgres) });
          expect(fromMemory).toBe(fromPostgres);
          const rows = JSON.parse(fromMemory) as Row[];
          // Mutual is the rule's isMutual, worked out here from the world itself (not the read model's copies).
          for (const row of rows) {
            const offer = tripsById.get(row.trip.id)!;
            const expected = isMutual({ asker: sideOf(trip), offer: sideOf(offer), settingDays: world.settingDays, askerWindow: window });
            expect({ seed, trip: trip.id, offer: offer.id, mutual: row.mutual }).toEqual({ seed, trip: trip.id, offer: offer.id, mutual: expected });
            expect(row.urgent).toBe(offer.startDate >= urgent.from && offer.startDate <= urgent.to);
            flagged[row.mutual ? 'mutual' : 'notMutual'] += 1;
            if (row.urgent) flagged.urgent += 1;
          }
          // Page by page, both sources give the same pages, which together are the whole list.
          if (rows.length > 1 && window === ownWindow) {
            const limit = 2 + (rows.length % 5);
            const walked: string[] = [];
            let cursor: string | null = null;
            let after: ReturnType<typeof decodeCursor> | null = null;
            do {
              const paged = { ...query, page: { limit, after } };
              const pageFound = offers.find(paged)!;
              const pageFromMemory = pageFound.json.toString();
              expect(pageFromMemory).toBe(await readModel.findOffersJson(paged));
              expect(pageFound.tripIds).toEqual(shownTripIds(pageFromMemory));
              const page = JSON.parse(pageFromMemory) as { matches: Row[]; total: number; nextCursor: string | null };
              expect(page.total).toBe(rows.length);
              expect(page.matches.length).toBeLessThanOrEqual(limit);
              walked.push(...page.matches.map((match) => match.trip.id));
              cursor = page.nextCursor;
              after = cursor === null ? null : decodeCursor(trip.id, cursor);
              flagged.pages += 1;
            } while (cursor !== null);
            expect(walked).toEqual(rows.map((row) => row.trip.id));
          }
          if (!finds.has(trip.id)) finds.set(trip.id, new Set(offerIds(fromMemory)));
        }
      }
      // Mutual and Urgent mean something here only if both values occur often.
      expect(flagged.mutual).toBeGreaterThan(0.05 * (flagged.mutual + flagged.notMutual));
      expect(flagged.notMutual).toBeGreaterThan(0.1 * (flagged.mutual + flagged.notMutual));
      expect(flagged.urgent).toBeGreaterThan(0.05 * (flagged.mutual + flagged.notMutual));

      const byStart = [...world.trips].sort((a, b) => (a.startDate !== b.startDate ? (a.startDate < b.startDate ? -1 : 1) : a.id < b.id ? -1 : 1));
      let alerted = 0;
      for (const offer of world.trips.filter((trip) => trip.isSwappable)) {
        const owner = askers.get(offer.pilotId)!;
        const recipients = await readModel.findRecipients({ owner, offer, settingDays: world.settingDays });
        // Each pilot once, with their earliest trip that finds the offer; deleted pilots and pilots
        // with swap alerts off are no recipients, whatever the rule says.
        const expected = new Map<string, string>();
        for (const trip of byStart) {
          const pilotId = trip.pilotId;
          if (world.deleted.has(pilotId) || world.alertsOff.has(pilotId) || expected.has(pilotId)) continue;
          if (finds.get(trip.id)!.has(offer.id)) expected.set(pilotId, trip.id);
        }
        const actual = new Map(recipients.map((recipient) => [recipient.pilotId, recipient.tripId]));
        expect({ seed, offer: offer.id, recipients: Object.fromEntries([...actual].sort()) }).toEqual({ seed, offer: offer.id, recipients: Object.fromEntries([...expected].sort()) });
        alerted += actual.size;
      }

      // The daily digest asks the rule of every offer and reader at once (a join, not offer by
      // offer): each pilot still here gets each offer under their earliest trip that finds it.
      const offered = world.trips.filter((trip) => trip.isSwappable);
      const digestItems = await createDigestRepository(h.service.runtime.db).found({
        offers: offered.map((offer) => ({ offer, at: new Date(`${base}T00:00:00Z`) })),
        readers: world.pilots.map((pilot) => ({ pilotId: pilot.id, since: new Date(0) })),
        today: TODAY,
        settingDays: world.settingDays,
      });
      const digested = new Map<string, string>();
      for (const offer of offered) {
        for (const trip of byStart) {
          const key = `${offer.id} ${trip.pilotId}`;
          if (!world.deleted.has(trip.pilotId) && !digested.has(key) && finds.get(trip.id)!.has(offer.id)) digested.set(key, trip.id);
        }
      }
      const actualItems = new Map(digestItems.map((item) => [`${item.offerId} ${item.pilotId}`, item.tripId]));
      expect({ seed, digest: Object.fromEntries([...actualItems].sort()) }).toEqual({ seed, digest: Object.fromEntries([...digested].sort()) });

      // Proposing (and countering) asks the rule of the owner's trip in a statement of its own
      // (insertIfFits, the proposer's trip in its own window): it takes exactly the offers Find swaps
      // lists. Asked of every other trip with one offer it finds and two near misses (same rank,
      // starting inside the window: refused by fleet, aircraft, training, LTC or owner), rolled back each time.
      const { db } = h.service.runtime;
      const proposals = createProposalRepository(db);
      const sides = createSwapSides({ proposals, clock: fixedClock(`${TODAY}T12:00:00Z`) });
      const events = createProposalEvents(h.service.runtime.outbox);
      const g = generator(seed + 1000);
      const rolledBack = new Error('rolled back');
      const side = (trip: Trip) => ({ pilot: askers.get(trip.pilotId)!.contact, trip, record: askers.get(trip.pilotId)!, otherTrips: [...sideOf(trip).otherTrips] });
      const proposed = { taken: 0, refused: 0 };
      const proposers = world.trips.filter((_, n) => n % 2 === 0);
      for (const trip of proposers) {
        const found = finds.get(trip.id)!;
        const window = tripWindow(trip, askers.get(trip.pilotId)!.searchDayRange, world.settingDays);
        const fitting = offered.filter((offer) => found.has(offer.id));
        const nearMisses = offered.filter(
          (offer) => !found.has(offer.id) && askers.get(offer.pilotId)!.rank === askers.get(trip.pilotId)!.rank && offer.startDate >= window.from && offer.startDate <= window.to,
        );
        const sample = [fitting, nearMisses, nearMisses].filter((offers) => offers.length > 0).map((offers) => g.pick(offers));
        for (const offer of sample) {
          const [mine, theirs] = [side(trip), side(offer)];
          let taken = false;
          await db
            .transaction(async (trx) => {
              const made = await proposals.insertIfFits(
                { id: g.uuid(), proposer: { pilot: mine.pilot, trip }, owner: { pilot: theirs.pilot, trip: offer }, note: null, counterOf: null, mutual: false, at: new Date() },
                sides.fitting(mine, world.settingDays),
                (made) => events.proposalRows(SUBJECTS.proposalMade, made, trip.pilotId),
                trx,
              );
              taken = made !== undefined;
              throw rolledBack;
            })
            .catch((error: unknown) => {
              if (error !== rolledBack) throw error;
            });
          expect({ seed, trip: trip.id, offer: offer.id, taken }).toEqual({ seed, trip: trip.id, offer: offer.id, taken: found.has(offer.id) });
          proposed[taken ? 'taken' : 'refused'] += 1;
        }
      }
      expect(proposed.taken).toBeGreaterThan(0.5 * proposers.length);
      expect(proposed.refused).toBeGreaterThan(0.5 * proposers.length);

      // The agreement means something only if most trips find offers and most offers reach someone.
      const finding = [...finds.values()].filter((found) => found.size > 0).length;
      expect(finding / finds.size).toBeGreaterThan(0.5);
      expect(alerted).toBeGreaterThan(2 * world.trips.filter((trip) => trip.isSwappable).length);
    }
  }, 240_000);

  it('Pick up a trip lists, and a pick-up takes, exactly the give-aways the one-way swap rule allows (rank, aircraft, the LTC rule, free on its days, never their own)', async () => {
    // Halfway between two airlines above (200 days apart): no window reaches their trips.
    const base = addDays(TODAY, 310);
    const world = airline(39, base);
    const g = generator(39 + 1000);
    for (const trip of world.trips) trip.offerType = g.pick(OFFER_TYPES);
    await load(h, world);
    const pilotsById = new Map(world.pilots.map((pilot) => [pilot.id, pilot]));
    /** The one-way rule, from proto's facts and the world itself: who could pick up this offer, starting in this window. */
    const canPickUp = (pilot: Pilot, offer: Trip, window: DayRange) => {
      const owner = pilotsById.get(offer.pilotId)!;
      return (
        offer.isSwappable &&
        offer.offerType !== 'swap' &&
        !world.deleted.has(pilot.id) &&
        !world.deleted.has(owner.id) &&
        owner.id !== pilot.id &&
        owner.rank === pilot.rank &&
        offer.aircraft !== null &&
        aircraftFlownBy(pilot.fleet).includes(offer.aircraft) &&
        !offer.isStandby &&
        (!offer.training || isLtcCaptain(pilot)) &&
        offer.startDate > TODAY &&
        offer.startDate >= window.from &&
        offer.startDate <= window.to &&
        !world.trips.some((held) => held.pilotId === pilot.id && overlaps({ from: held.startDate, to: held.endDate }, { from: offer.startDate, to: offer.endDate }))
      );
    };
    const seen = { listed: 0, picked: 0, refused: 0 };
    for (const pilot of world.pilots) {
      const from = addDays(base, g.below(18));
      const window = { from, to: addDays(from, g.below(8)) };
      const response = await h.service.app.inject({ method: 'GET', url: `/api/swaps/giveaways?from=${window.from}&to=${window.to}`, cookies: h.cookies(pilot) });
      expect(response.statusCode).toBe(200);
      const listed = (response.json() as Giveaway[]).map((item) => item.trip.id).sort();
      const expected = world.trips.filter((offer) => canPickUp(pilot, offer, window)).map((offer) => offer.id).sort();
      expect({ pilot: pilot.id, window, listed }).toEqual({ pilot: pilot.id, window, listed: expected });
      seen.listed += listed.length;

      // A pick-up is the listing's rule for the one trip: one it allows and two near misses (same rank, offered as a give-away).
      const allowed = world.trips.filter((offer) => canPickUp(pilot, offer, { from: offer.startDate, to: offer.startDate }));
      const nearMisses = world.trips.filter((offer) => offer.isSwappable && offer.offerType !== 'swap' && pilotsById.get(offer.pilotId)!.rank === pilot.rank && !allowed.includes(offer));
      for (const offer of [allowed, nearMisses, nearMisses].filter((offers) => offers.length > 0).map((offers) => g.pick(offers))) {
        const made = await h.service.app.inject({ method: 'POST', url: '/api/swaps/proposals', payload: { offeredTripId: offer.id, myTripId: null }, cookies: h.cookies(pilot) });
        // The same pick-up twice is refused as already proposed: the first answer decides.
        if (made.statusCode === 409 && made.json().error === PROPOSAL_MESSAGES.alreadyProposed) continue;
        expect({ pilot: pilot.id, offer: offer.id, taken: made.statusCode === 201 }).toEqual({ pilot: pilot.id, offer: offer.id, taken: allowed.includes(offer) });
        seen[made.statusCode === 201 ? 'picked' : 'refused'] += 1;
      }
    }
    // The agreement means something only if both answers occur often.
    expect(seen.listed).toBeGreaterThan(world.pilots.length / 2);
    expect(seen.picked).toBeGreaterThan(world.pilots.length / 3);
    expect(seen.refused).toBeGreaterThan(world.pilots.length / 3);
  }, 120_000);
});
