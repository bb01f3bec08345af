/**
 * The flight time limitations check alone: `cd services/swaps && npx tsx bench/legality.bench.ts [--calls N]`.
 * One pilot's roster of 40 trips over four months (day trips, and trips of up to four days with
 * layovers), and a page of offered trips, each checked as a swap against it the way Find swaps
 * does: the same roster array and trip objects every call (with --page N, a new array of the same
 * trips every N calls, as when a roster is read afresh per request). Prints microseconds per
 * checkSwap call; it asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { checkSwap, DEFAULT_FLIGHT_TIME_LIMITS, fromMinute, toMinute, type Sector, type TripTimes } from '@crewswap/proto';
import { HOME, random, ZONE, type Random } from '../test/legality-roster';

const { values: flags } = parseArgs({ options: { calls: { type: 'string', default: '200000' }, page: { type: 'string', default: '0' } } });
const CALLS = Number(flags.calls);
const PAGE = Number(flags.page);
const H = 60;
const DAY = 24 * H;
const AWAY = ['JFK', 'BOS', 'LAX', 'JNB', 'DEL', 'HKG', 'MCO', 'ATL'];


/** A trip leaving home at `depart`: out and back the same day, or out, 1-3 layovers away, and back. */
function randomTrip(r: Random, id: string, depart: number, n: number): TripTimes {
  const flight = (k: number) => `VS${String(n + k).padStart(3, '0')}`;
  const away = AWAY[r.int(0, AWAY.length - 1)]!;
  const sector = (k: number, from: string, to: string, at: number, block: number): Sector => ({
    flightNo: flight(k),
    from,
    to,
    departAt: fromMinute(at),
    arriveAt: fromMinute(at + block),
    positioning: r.next() < 0.05,
  });
  const days = r.int(1, 4);
  const out = r.int(2 * H, 8 * H);
  const sectors: Sector[] = [sector(0, HOME, away, depart, out)];
  let t = depart + out;
  if (days === 1) {
    t += r.int(45, 3 * H);
  } else {
    // Layovers: a night or more away, with a shuttle to a second station sometimes.
    for (let leg = 1; leg < days - 1; leg += 1) {
      t += r.int(16 * H, 30 * H);
      const block = r.int(1 * H, 3 * H);
      sectors.push(sector(leg, away, away, t, block));
      t += block;
    }
    t += r.int(12 * H, 30 * H);
  }
  const back = r.int(2 * H, 8 * H);
  sectors.push(sector(sectors.length, away, HOME, t, back));
  const end = t + back;
  return { id, flightNoStart: flight(0), startDate: fromMinute(depart).slice(0, 10), endDate: fromMinute(end).slice(0, 10), reportAt: null, releaseAt: null, sectors };
}

/** `count` trips one after another from `start`, with 2-4 days off between them. */
function randomRoster(r: Random, prefix: string, start: number, count: number): TripTimes[] {
  const trips: TripTimes[] = [];
  let t = start;
  for (let i = 0; i < count; i += 1) {
    const trip = randomTrip(r, `${prefix}${i}`, t, i * 10);
    trips.push(trip);
    const end = toMinute(trip.sectors!.at(-1)!.arriveAt);
    t = Math.ceil((end + r.int(2 * DAY, 4 * DAY)) / H) * H;
  }
  return trips;
}

const r = random(55);
const start = toMinute('2026-09-01T07:00:00Z');
let roster = randomRoster(r, 'mine-', start, 40);
// A page of offers: other pilots' trips, most leaving about when one of the roster's does (a swap),
// some anywhere in its months (picked up for nothing).
const swaps = Array.from({ length: 30 }, (_, i) => {
  const given = i % 3 === 0 ? null : roster[r.int(0, roster.length - 1)]!;
  const depart = given ? toMinute(given.sectors![0]!.departAt) + r.int(-6, 6) * H : start + r.int(0, 110) * DAY + r.int(6, 20) * H;
  return { given, taken: randomTrip(r, `offer-${i}`, depart, 500 + i * 10) };
});

const limits = DEFAULT_FLIGHT_TIME_LIMITS;
let legal = 0;
const run = (calls: number) => {
  for (let i = 0; i < calls; i += 1) {
    if (PAGE > 0 && i % PAGE === 0) roster = [...roster];
    const { given, taken } = swaps[i % swaps.length]!;
    if (checkSwap(roster, given, taken, limits, HOME, ZONE).legal === true) legal += 1;
  }
};

run(Math.min(CALLS, 20_000)); // warm up: the JIT and the caches a long-running service holds
legal = 0;
const began = performance.now();
run(CALLS);
const micros = ((performance.now() - began) * 1000) / CALLS;
const arrays = PAGE > 0 ? `, a new roster array every ${PAGE} calls` : '';
console.log(`checkSwap, ${roster.length}-trip roster, ${swaps.length} offers${arrays}: ${micros.toFixed(2)} µs per call (${CALLS} calls, ${legal} legal)`);
