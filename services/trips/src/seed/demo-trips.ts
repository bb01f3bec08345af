import type { Clock, Db } from '@crewswap/kit';
import { addDays, type Aircraft, type Pilot } from '@crewswap/proto';
import type { TripFields, TripRepository } from '../data/trips';
import type { TripEvents } from '../domain/events';
import { allowedAircraft } from '../domain/rules';

/** Real Virgin Atlantic destinations with their outbound and return flight numbers. */
const DESTINATIONS: { route: string; out: string; back: string; days: number }[] = [
  { route: 'JFK', out: 'VS003', back: 'VS004', days: 3 },
  { route: 'JFK', out: 'VS025', back: 'VS026', days: 3 },
  { route: 'BOS', out: 'VS011', back: 'VS012', days: 3 },
  { route: 'LAX', out: 'VS023', back: 'VS024', days: 4 },
  { route: 'SFO', out: 'VS019', back: 'VS020', days: 4 },
  { route: 'SEA', out: 'VS105', back: 'VS106', days: 4 },
  { route: 'ATL', out: 'VS103', back: 'VS104', days: 3 },
  { route: 'MCO', out: 'VS015', back: 'VS016', days: 4 },
  { route: 'LAS', out: 'VS043', back: 'VS044', days: 4 },
  { route: 'BGI', out: 'VS029', back: 'VS030', days: 4 },
  { route: 'DEL', out: 'VS300', back: 'VS301', days: 4 },
  { route: 'JNB', out: 'VS449', back: 'VS450', days: 5 },
  { route: 'LOS', out: 'VS411', back: 'VS412', days: 3 },
  { route: 'TLV', out: 'VS453', back: 'VS454', days: 3 },
  { route: 'BOM', out: 'VS354', back: 'VS355', days: 4 },
  { route: 'MIA', out: 'VS005', back: 'VS006', days: 3 },
  { route: 'ATL-MCO', out: 'VS109', back: 'VS074', days: 5 },
  { route: 'SEA-LAX', out: 'VS105', back: 'VS024', days: 5 },
  { route: 'MBJ', out: 'VS065', back: 'VS066', days: 4 },
  { route: 'ANU', out: 'VS033', back: 'VS034', days: 4 },
];
const STANDBYS = ['SBY', 'HSBY', 'RSV'];
const DESCRIPTIONS = [
  'Happy to swap for any East Coast trip',
  'Looking for a shorter trip the same week',
  'Family event, any trip considered',
  'Would prefer a Caribbean trip',
  'Swap for anything starting a day or two later',
  'Open to offers, flexible on dates',
];

/** A small seeded generator, so a pilot's demo roster is the same every time it is built. */
function randomFor(seed: string): () => number {
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** About two months of non-overlapping trips and standbys from tomorrow, a fifth offered (some as give-aways). */
export function demoTripsFor(pilot: Pick<Pilot, 'id' | 'fleet'>, today: string): TripFields[] {
  const random = randomFor(pilot.id);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const aircraftChoices = allowedAircraft(pilot.fleet);
  const last = addDays(today, 60);
  const result: TripFields[] = [];
  let day = addDays(today, 1 + Math.floor(random() * 3));
  while (day <= last) {
    const standby = random() < 0.2;
    const destination = pick(DESTINATIONS);
    const length = standby ? 1 : Math.min(5, Math.max(2, destination.days + Math.floor(random() * 2) - 1));
    const endDate = addDays(day, length - 1);
    if (endDate > last) break;
    const offered = !standby && random() < 0.2;
    result.push({
      flightNoStart: standby ? 'VS000' : destination.out,
      flightNoEnd: standby ? 'VS000' : destination.back,
      aircraft: standby ? null : (pick(aircraftChoices) as Aircraft),
      route: standby ? pick(STANDBYS) : destination.route,
      startDate: day,
      endDate,
      isSwappable: offered,
      // A few offers are give-aways, so Pick up a trip has something to show.
      offerType: offered && random() < 0.3 ? 'giveaway' : 'swap',
      training: false,
      requested: false,
      companions: null,
      swapDescription: offered ? pick(DESCRIPTIONS) : null,
      icsDescription: null,
      searchStartDate: null,
      searchEndDate: null,
      isStandby: standby,
      source: 'manual',
    });
    day = addDays(endDate, 2 + Math.floor(random() * 4));
  }
  return result;
}

/**
 * Demo trips for the demo pilots auth just created (the root seed runner calls auth, then this).
 * Runs only while no test pilot has trips, so running the seed again adds nothing.
 */
export function createSeedDemoTrips(deps: { db: Db; trips: TripRepository; events: TripEvents; clock: Clock }) {
  const { db, trips, events, clock } = deps;
  return {
    async execute(input: { pilots: Pick<Pilot, 'id' | 'fleet' | 'testData'>[] }): Promise<{ created: number }> {
      return db.transaction(async (trx) => {
        const testPilots = input.pilots.filter((pilot) => pilot.testData).map((pilot) => pilot.id);
        if ((await trips.countForTestPilots(trx)) > 0 || (await trips.countForPilots(testPilots, trx)) > 0) {
          return { created: 0 };
        }
        let created = 0;
        for (const pilot of input.pilots) {
          const stored = await trips.insertMany(pilot.id, demoTripsFor(pilot, clock.today()), trx);
          // Created events carry isSwappable for the swaps read model; no offer alerts for demo data.
          for (const trip of stored) await events.created(trx, trip);
          created += stored.length;
        }
        return { created };
      });
    },
  };
}
