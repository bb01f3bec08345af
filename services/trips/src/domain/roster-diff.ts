import type { Trip } from '@crewswap/proto';
import type { TripFields } from '../data/trips';

/** What a roster says of one duty, and what is compared to tell a changed duty. */
export type DutyFields = Pick<TripFields, 'flightNoStart' | 'flightNoEnd' | 'aircraft' | 'route' | 'startDate' | 'endDate' | 'icsDescription' | 'isStandby'>;

const COMPARED: (keyof DutyFields)[] = ['flightNoStart', 'flightNoEnd', 'aircraft', 'route', 'startDate', 'endDate', 'icsDescription', 'isStandby'];

/** How far apart two starts of the same flight may be and still be one duty that moved. */
export const MOVED_DUTY_DAYS = 7;

export interface RosterDiff<N extends DutyFields> {
  /** The same duty, nothing different. */
  unchanged: { item: N; trip: Trip }[];
  /** The same duty, something different: `trip` as held, `item` as the roster now says. */
  changed: { item: N; trip: Trip }[];
  /** Duties no held trip stands for. */
  added: N[];
  /** Held trips the roster no longer has. */
  removed: Trip[];
}

export const sameDutyKey = (duty: Pick<DutyFields, 'flightNoStart' | 'flightNoEnd' | 'startDate'>) => `${duty.flightNoStart}/${duty.flightNoEnd}/${duty.startDate}`;

export const differs = (trip: Trip, item: DutyFields) => COMPARED.some((field) => (trip[field] ?? null) !== (item[field] ?? null));

const overlaps = (a: Pick<DutyFields, 'startDate' | 'endDate'>, b: Pick<DutyFields, 'startDate' | 'endDate'>) => a.startDate <= b.endDate && a.endDate >= b.startDate;

const daysApart = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 86_400_000;

/**
 * Compares a new roster with the pilot's trips from earlier rosters over the period it covers
 * (the caller picks `held`). A held trip is the same duty as a roster entry, in this order:
 * (1) the same start flight, end flight and start date (the import's duplicate key); (2) dates
 * that overlap (a pilot flies one duty at a time, so a duty on the same days replaced it: a
 * standby that became a flight, a new return flight); (3) the same flight numbers starting at
 * most MOVED_DUTY_DAYS apart, the nearest first (a trip moved to other days). Whatever is left is
 * added or removed. `keep`: held trips touching these dates are never removed (a roster entry
 * that could not be read may still stand for them).
 */
export function diffRoster<N extends DutyFields>(incoming: N[], held: Trip[], keep: Pick<DutyFields, 'startDate' | 'endDate'>[] = []): RosterDiff<N> {
  const left = new Set(held);
  const pairs: { item: N; trip: Trip }[] = [];
  const unpaired: N[] = [];
  const byKey = new Map(held.map((trip) => [sameDutyKey(trip), trip]));
  for (const item of incoming) {
    const trip = byKey.get(sameDutyKey(item));
    if (trip && left.has(trip)) {
      left.delete(trip);
      pairs.push({ item, trip });
    } else unpaired.push(item);
  }
  const take = (item: N, pick: (trip: Trip) => boolean, rank: (trip: Trip) => number = () => 0): boolean => {
    const found = [...left].filter(pick).sort((a, b) => rank(a) - rank(b) || a.startDate.localeCompare(b.startDate))[0];
    if (!found) return false;
    left.delete(found);
    pairs.push({ item, trip: found });
    return true;
  };
  const stillUnpaired = unpaired.filter((item) => !take(item, (trip) => overlaps(trip, item)));
  const added = stillUnpaired.filter(
    (item) =>
      !take(
        item,
        (trip) => trip.flightNoStart === item.flightNoStart && trip.flightNoEnd === item.flightNoEnd && daysApart(trip.startDate, item.startDate) <= MOVED_DUTY_DAYS,
        (trip) => daysApart(trip.startDate, item.startDate),
      ),
  );
  return {
    unchanged: pairs.filter(({ item, trip }) => !differs(trip, item)),
    changed: pairs.filter(({ item, trip }) => differs(trip, item)),
    added,
    removed: [...left].filter((trip) => !keep.some((range) => overlaps(trip, range))),
  };
}

/** The period a roster covers: from its first duty's start to its last duty's end. */
export function coveredPeriod(items: Pick<DutyFields, 'startDate' | 'endDate'>[]): { from: string; to: string } | null {
  if (items.length === 0) return null;
  let from = items[0]!.startDate;
  let to = items[0]!.endDate;
  for (const item of items) {
    if (item.startDate < from) from = item.startDate;
    if (item.endDate > to) to = item.endDate;
  }
  return { from, to };
}

/** A roster-sourced trip that starts inside the period is the new roster's to keep, change or remove. */
export const isRosterTripIn = (trip: Trip, period: { from: string; to: string }) => trip.source !== 'manual' && trip.startDate >= period.from && trip.startDate <= period.to;
