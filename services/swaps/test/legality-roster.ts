/** Trips with times for the flight time limitations tests: home base LHR, Europe/London. */
import { addDays, type FlightTimeLimits, type TripTimes } from '@crewswap/proto';

export const HOME = 'LHR';
export const ZONE = 'Europe/London';

/** [flightNo, from, to, departAt, arriveAt, positioning?] */
export type SectorRow = [string, string, string, string, string, boolean?];

const minutes = (instant: string, add: number) => new Date(Date.parse(instant) + add * 60_000).toISOString().replace('.000Z', 'Z');
/** An instant `add` minutes after `date` `time` UTC. */
export const at = (date: string, time: string, add = 0) => minutes(`${date}T${time}:00Z`, add);

/** A trip flown as these sectors; its dates are the UTC dates of its first departure and last arrival. */
export function trip(id: string, sectors: SectorRow[], times: { reportAt?: string; releaseAt?: string } = {}): TripTimes {
  return {
    id,
    flightNoStart: sectors[0]![0],
    startDate: (times.reportAt ?? sectors[0]![3]).slice(0, 10),
    endDate: (times.releaseAt ?? sectors.at(-1)![4]).slice(0, 10),
    reportAt: times.reportAt ?? null,
    releaseAt: times.releaseAt ?? null,
    sectors: sectors.map(([flightNo, from, to, departAt, arriveAt, positioning]) => ({ flightNo, from, to, departAt, arriveAt, positioning: positioning ?? false })),
  };
}

/** A one-duty trip the roster gives only check-in and check-out for (a simulator, a standby). */
export function duty(id: string, flightNo: string, reportAt: string, releaseAt: string): TripTimes {
  return { id, flightNoStart: flightNo, startDate: reportAt.slice(0, 10), endDate: releaseAt.slice(0, 10), reportAt, releaseAt, sectors: null };
}

/** A typed trip: dates only. */
export function typed(id: string, flightNo: string, startDate: string, endDate: string): TripTimes {
  return { id, flightNoStart: flightNo, startDate, endDate, reportAt: null, releaseAt: null, sectors: null };
}

/** `count` daily duties from `first`, 08:00 to 08:00 + `hours` (UTC), flights VS001, VS002, ... */
export function dailyDuties(first: string, days: number[], hours: number, lastExtra = 0): TripTimes[] {
  return days.map((day, i) => {
    const date = addDays(first, day);
    const flightNo = `VS${String(i + 1).padStart(3, '0')}`;
    return duty(`d${i + 1}`, flightNo, at(date, '08:00'), at(date, '08:00', hours * 60 + (i === days.length - 1 ? lastExtra : 0)));
  });
}

/** A JFK trip leaving LHR on `date` (block 8 h out, 8 h back the next night), flights VS(n) and VS(n+1). */
export function jfk(id: string, date: string, n: number, backExtra = 0): TripTimes {
  const next = addDays(date, 1);
  return trip(id, [
    [`VS${String(n).padStart(3, '0')}`, 'LHR', 'JFK', at(date, '10:00'), at(date, '18:00')],
    [`VS${String(n + 1).padStart(3, '0')}`, 'JFK', 'LHR', at(next, '22:00'), at(next, '22:00', 8 * 60 + backExtra)],
  ]);
}

/** mulberry32: the same rosters on every run, so a failure can be replayed. */
export function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

export type Random = ReturnType<typeof random>;

/** Limits around EASA's, each drawn from a range wide enough that rosters break them now and then. */
export function randomLimits(r: Random): FlightTimeLimits {
  return {
    reportMinutes: r.int(30, 90),
    releaseMinutes: r.int(15, 45),
    layoverMinHours: r.int(6, 10),
    minRestAtHomeHours: r.int(8, 14),
    minRestAwayHours: r.int(6, 12),
    maxDuty7DaysHours: r.int(20, 60),
    maxDuty14DaysHours: r.int(40, 110),
    maxDuty28DaysHours: r.int(60, 190),
    maxBlock28DaysHours: r.int(20, 100),
    maxBlockYearHours: r.int(30, 300),
    recoveryRestHours: r.int(24, 48),
    recoveryLocalNights: r.int(0, 2),
    recoveryEveryHours: r.int(72, 200),
  };
}
