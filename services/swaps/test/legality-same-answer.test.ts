/**
 * checkSwap remembers what it works out of a roster (per roster array, per trip object), because
 * Find swaps checks a page of offers against one roster held in memory. What it remembers must
 * never show: the answer is the same asked twice, asked of fresh copies of the same trips, asked
 * after the roster array was changed in place, and the same as checking the roster after the swap.
 */
import { checkLegality, checkSwap, DEFAULT_FLIGHT_TIME_LIMITS, fromMinute, rosterAfterSwap, toMinute, type FlightTimeLimits, type TripTimes } from '@crewswap/proto';
import { duty, HOME, random, randomLimits, trip, typed, ZONE, type Random, type SectorRow } from './legality-roster';

const H = 60;
const DAY = 24 * H;
const STATIONS = ['JFK', 'BOS', 'DEL'];


/** A trip from `start`: out and back with a turn round or layovers, a duty given by check-in and check-out, or (rarely) dates only. */
function randomTrip(r: Random, id: string, start: number, typedShare: number): { trip: TripTimes; end: number } {
  const flight = (n: number) => `VS${String(r.int(1, 999) + n).padStart(3, '0')}`;
  if (r.next() < typedShare) return { trip: typed(id, flight(0), fromMinute(start).slice(0, 10), fromMinute(start + DAY).slice(0, 10)), end: start + DAY };
  if (r.next() < 0.2) {
    const length = r.int(2 * H, 14 * H);
    return { trip: duty(id, flight(0), fromMinute(start), fromMinute(start + length)), end: start + length };
  }
  const away = STATIONS[r.int(0, STATIONS.length - 1)]!;
  const rows: SectorRow[] = [];
  let t = start;
  const legs = r.int(2, 4);
  for (let leg = 0; leg < legs; leg += 1) {
    const block = r.int(1 * H, 10 * H);
    rows.push([flight(leg), leg === 0 ? HOME : away, leg === legs - 1 ? HOME : away, fromMinute(t), fromMinute(t + block), r.next() < 0.1]);
    t += block + (leg === legs - 1 ? 0 : r.next() < 0.5 ? r.int(30, 5 * H) : r.int(8 * H, 40 * H));
  }
  return { trip: trip(id, rows), end: t };
}

/** A pilot's roster: trips one after another (sometimes overlapping), in no particular order. */
function randomRoster(r: Random, prefix: string, start: number, typedShare: number): TripTimes[] {
  const trips: TripTimes[] = [];
  let t = start;
  const count = r.int(0, 40);
  for (let i = 0; i < count; i += 1) {
    const made = randomTrip(r, `${prefix}${i}`, t, typedShare);
    trips.push(made.trip);
    t = r.next() < 0.05 ? t + r.int(0, 6 * H) : made.end + r.int(2 * H, 4 * DAY);
  }
  return r.next() < 0.3 ? trips.sort(() => r.next() - 0.5) : trips;
}

const copied = (trips: readonly TripTimes[]) => trips.map((trip) => structuredClone(trip));

describe('checking swaps against a roster held in memory', () => {
  it('gives the same answer twice, for fresh copies of the trips, after the roster changed in place, and as the roster after the swap', () => {
    const r = random(4242);
    let illegal = 0;
    let checks = 0;
    for (let run = 0; run < 60; run += 1) {
      const start = toMinute(r.next() < 0.5 ? '2025-12-01T00:00:00Z' : '2026-03-10T00:00:00Z') + r.int(0, 20 * DAY);
      const typedShare = r.next() < 0.7 ? 0 : 0.03;
      const roster = randomRoster(r, 'mine-', start, typedShare);
      const offers = randomRoster(r, 'offer-', start, typedShare);
      for (let k = 0; k < 10 && offers.length > 0; k += 1) {
        const limits = r.next() < 0.3 ? DEFAULT_FLIGHT_TIME_LIMITS : randomLimits(r);
        // Now and then a trip the pilot holds already, or gives the very trip taken.
        const held = roster.length > 0 && r.next() < 0.2;
        const taken = held ? roster[r.int(0, roster.length - 1)]! : offers[r.int(0, offers.length - 1)]!;
        const given = roster.length === 0 || r.next() < 0.3 ? null : held && r.next() < 0.5 ? taken : roster[r.int(0, roster.length - 1)]!;
        if (roster.length > 0 && r.next() < 0.1) roster[r.int(0, roster.length - 1)] = randomTrip(r, `changed-${k}`, start + r.int(0, 60 * DAY), typedShare).trip;

        const answer = checkSwap(roster, given, taken, limits, HOME, ZONE);
        const where = { run, k };
        expect({ where, answer: checkSwap(roster, given, taken, limits, HOME, ZONE) }).toEqual({ where, answer });
        expect({ where, answer: checkSwap(copied(roster), given, structuredClone(taken), limits, HOME, ZONE) }).toEqual({ where, answer });
        expect({ where, answer: checkLegality(rosterAfterSwap(copied(roster), given, taken), limits, HOME, ZONE, { focusTripId: taken.id }) }).toEqual({ where, answer });
        checks += 1;
        if (answer.legal === false) illegal += 1;
      }
    }
    // Swaps that break limits and swaps that keep them, both often enough to mean something.
    expect(illegal).toBeGreaterThan(checks / 5);
    expect(illegal).toBeLessThan((checks * 4) / 5);
  });
});
