/** Trips with times for the flight time limitations tests: home base LHR, Europe/London. */
import { addDays, type TripTimes } from '@crewswap/proto';

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
