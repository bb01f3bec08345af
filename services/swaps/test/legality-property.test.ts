/**
 * The check never passes a roster that breaks a limit, and never fails one that keeps them all:
 * random rosters under random limits, against violations counted the slow way, minute by minute.
 */
import { checkLegality, DEFAULT_FLIGHT_TIME_LIMITS, fromMinute, toMinute, tripDuties, type FlightTimeLimits, type TripTimes } from '@crewswap/proto';
import { HOME, random, randomLimits, trip, ZONE, type Random, type SectorRow } from './legality-roster';

const H = 60;
const DAY = 24 * H;


/** Trips one after another from `start`: turn rounds, trips with layovers, and duties given only by check-in and check-out. */
function randomRoster(r: Random, start: number): TripTimes[] {
  const trips: TripTimes[] = [];
  let t = start;
  const count = r.int(1, 12);
  for (let i = 0; i < count; i += 1) {
    const id = `t${i}`;
    const kind = r.int(0, 2);
    const flight = (n: number) => `VS${String(i * 2 + n).padStart(3, '0')}`;
    if (kind === 2) {
      const length = r.int(2 * H, 14 * H);
      trips.push({ id, flightNoStart: flight(1), startDate: fromMinute(t).slice(0, 10), endDate: fromMinute(t + length).slice(0, 10), reportAt: fromMinute(t), releaseAt: fromMinute(t + length), sectors: null });
      t += length;
    } else {
      const out = r.int(1 * H, 11 * H);
      const ground = kind === 0 ? r.int(30, 5 * H) : r.int(6 * H, 80 * H);
      const back = r.int(1 * H, 11 * H);
      const rows: SectorRow[] = [
        [flight(1), HOME, 'JFK', fromMinute(t), fromMinute(t + out), r.next() < 0.1],
        [flight(2), 'JFK', HOME, fromMinute(t + out + ground), fromMinute(t + out + ground + back)],
      ];
      trips.push(trip(id, rows));
      t += out + ground + back;
    }
    t += r.int(2 * H, 90 * H);
  }
  return trips;
}

/** London's offset from UTC in minutes, from the rule itself: summer time from 01:00 UTC on the last Sunday of March to the last of October. */
const lastSunday = (year: number, month: number) => {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1) / 60_000;
};
const SUMMERS = [2025, 2026, 2027].map((year) => [lastSunday(year, 2), lastSunday(year, 9)] as const);
function londonOffset(minute: number): number {
  return SUMMERS.some(([start, end]) => minute >= start && minute < end) ? 60 : 0;
}

/** Every limit the roster breaks, found minute by minute. */
function bruteForce(roster: TripTimes[], limits: FlightTimeLimits): Set<string> {
  const duties = roster.flatMap((t) => tripDuties(t, limits)!).sort((a, b) => a.start - b.start);
  const broken = new Set<string>();
  const from = duties[0]!.start - 30 * DAY;
  const to = Math.max(...duties.map((d) => d.end)) + 30 * DAY;
  const size = to - from;
  const busy = new Uint8Array(size);
  const flying = new Uint8Array(size);
  const endsAt = new Map<number, string | null>();
  for (const d of duties) {
    for (let m = d.start; m < d.end; m += 1) busy[m - from] = 1;
    for (const b of d.block) for (let m = b.start; m < b.end; m += 1) flying[m - from]! += 1;
    endsAt.set(d.end, endsAt.has(d.end) && endsAt.get(d.end) !== d.to ? 'away' : d.to);
  }
  // Duty counts each duty's minutes (overlapping duties twice), as the rule sums duties.
  const dutyMinutes = new Int32Array(size);
  for (const d of duties) for (let m = d.start; m < d.end; m += 1) dutyMinutes[m - from]! += 1;
  const prefix = (values: ArrayLike<number>) => {
    const sums = new Float64Array(values.length + 1);
    for (let i = 0; i < values.length; i += 1) sums[i + 1] = sums[i]! + values[i]!;
    return sums;
  };
  const dutySums = prefix(dutyMinutes);
  const blockSums = prefix(flying);
  const windows: [Float64Array, number, number, string][] = [
    [dutySums, 7, limits.maxDuty7DaysHours, 'Duty in 7 '],
    [dutySums, 14, limits.maxDuty14DaysHours, 'Duty in 14 '],
    [dutySums, 28, limits.maxDuty28DaysHours, 'Duty in 28 '],
    [blockSums, 28, limits.maxBlock28DaysHours, 'Block in 28 '],
  ];
  for (const [sums, days, max, kind] of windows) {
    for (let s = 0; s + days * DAY <= size; s += 1) if (sums[s + days * DAY]! - sums[s]! > max * H) broken.add(kind);
  }
  const years = new Map<number, number>();
  for (let m = 0; m < size; m += 1) {
    if (!flying[m]) continue;
    const year = new Date((from + m + londonOffset(from + m)) * 60_000).getUTCFullYear();
    years.set(year, (years.get(year) ?? 0) + flying[m]!);
  }
  for (const [year, total] of years) if (total > limits.maxBlockYearHours * H) broken.add(`Block in ${year}`);

  for (let i = 1; i < duties.length; i += 1) {
    const before = duties[i - 1]!;
    const d = duties[i]!;
    const minimum = (d.from === null || d.from === HOME ? limits.minRestAtHomeHours : limits.minRestAwayHours) * H;
    if (d.start - before.end < Math.max(before.end - before.start, minimum)) broken.add('Rest');
  }

  // Free runs between duties; those at the ends of the horizon are the time off before and after.
  const runs: { start: number; end: number; qualifies: boolean }[] = [];
  for (let m = 0; m < size; ) {
    if (busy[m]) {
      m += 1;
      continue;
    }
    const start = m;
    while (m < size && !busy[m]) m += 1;
    const edge = start === 0 || m === size;
    const where = endsAt.get(from + start);
    const nightMinutes = new Map<number, number>();
    for (let k = start; k < m; k += 1) {
      const local = from + k + londonOffset(from + k);
      const minuteOfDay = ((local % DAY) + DAY) % DAY;
      const night = minuteOfDay >= 22 * H ? Math.floor(local / DAY) : minuteOfDay < 8 * H ? Math.floor(local / DAY) - 1 : null;
      if (night !== null) nightMinutes.set(night, (nightMinutes.get(night) ?? 0) + 1);
    }
    const nights = [...nightMinutes.values()].filter((count) => count >= 8 * H).length;
    const qualifies = edge || ((where === null || where === HOME) && m - start >= limits.recoveryRestHours * H && nights >= limits.recoveryLocalNights);
    runs.push({ start: from + start, end: from + m, qualifies });
  }
  const recoveries = runs.filter((run) => run.qualifies);
  for (let i = 1; i < recoveries.length; i += 1) if (recoveries[i]!.start - recoveries[i - 1]!.end > limits.recoveryEveryHours * H) broken.add('No ');
  return broken;
}

const kindOf = (reason: string) => ['Rest', 'Duty in 7 ', 'Duty in 14 ', 'Duty in 28 ', 'Block in 28 ', 'No '].find((kind) => reason.startsWith(kind)) ?? reason.slice(0, 13);

describe('flight time limitations, on random rosters', () => {
  it('never passes a roster that breaks a limit, and names every limit it breaks', () => {
    const r = random(55);
    let illegal = 0;
    for (let run = 0; run < 150; run += 1) {
      const limits = run % 10 === 0 ? DEFAULT_FLIGHT_TIME_LIMITS : randomLimits(r);
      const start = toMinute(r.next() < 0.5 ? '2025-12-01T00:00:00Z' : '2026-06-20T00:00:00Z') + r.int(0, 20 * DAY);
      const roster = randomRoster(r, start);
      const broken = bruteForce(roster, limits);
      const result = checkLegality(roster, limits, HOME, ZONE);
      const found = new Set(result.reasons.map(kindOf));
      expect({ run, found: [...found].sort() }).toEqual({ run, found: [...broken].sort() });
      expect(result.legal).toBe(broken.size === 0);
      if (broken.size > 0) illegal += 1;
    }
    // The rosters break limits often enough, and keep them often enough, for the test to mean something.
    expect(illegal).toBeGreaterThan(20);
    expect(illegal).toBeLessThan(140);
  });
});
