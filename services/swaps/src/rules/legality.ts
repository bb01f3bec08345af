import { checkSwap, type FlightTimeLimits, type Legality, type Trip, type TripTimes } from '@crewswap/proto';

/**
 * The flight time limitations check as swaps asks it (issue 55): the one check of proto's
 * legality.ts, for Find swaps (data/offer-index, domain/find-matches), proposals and the desk.
 */

/** Both bases (LHR, MAN) keep London's clock: local nights and dates are counted on it. */
export const HOME_ZONE = 'Europe/London';

/** What the check reads of a trip. */
export function timesOf(trip: Pick<Trip, 'id' | 'flightNoStart' | 'startDate' | 'endDate' | 'reportAt' | 'releaseAt' | 'sectors'>): TripTimes {
  return {
    id: trip.id,
    flightNoStart: trip.flightNoStart,
    startDate: trip.startDate,
    endDate: trip.endDate,
    reportAt: trip.reportAt ?? null,
    releaseAt: trip.releaseAt ?? null,
    sectors: trip.sectors ?? null,
  };
}

/** A pilot taking trips: their roster as it is now, and where they are based. */
export interface RosterOf {
  roster: readonly TripTimes[];
  base: string;
}

/**
 * Checks made, by roster array, then by base, by limits, by the trip given (or NOTHING_GIVEN), then
 * by the trip taken: a held roster (data/roster-cache.ts) and the offer index's trips are the same
 * objects from one request to the next, so a pilot paging through or searching again is not checked
 * again. A roster read afresh is a new array, and its checks go with it; a trip read afresh is a new
 * object, checked afresh. Every step is a lookup by an object or a short constant: no key is
 * built per row.
 */
const checksMade = new WeakMap<readonly TripTimes[], Map<string, WeakMap<FlightTimeLimits, WeakMap<object, WeakMap<TripTimes, Legality>>>>>();
/** The trip given of a pick-up, in which nothing is. */
const NOTHING_GIVEN = {};

function keptChecks(pilot: RosterOf, given: object, limits: FlightTimeLimits): WeakMap<TripTimes, Legality> {
  let byBase = checksMade.get(pilot.roster);
  if (!byBase) checksMade.set(pilot.roster, (byBase = new Map()));
  let byLimits = byBase.get(pilot.base);
  if (!byLimits) byBase.set(pilot.base, (byLimits = new WeakMap()));
  let byGiven = byLimits.get(limits);
  if (!byGiven) byLimits.set(limits, (byGiven = new WeakMap()));
  let byTaken = byGiven.get(given);
  if (!byTaken) byGiven.set(given, (byTaken = new WeakMap()));
  return byTaken;
}

/**
 * One pilot's check of trips they might take, giving `given` away (null: nothing, a pick-up), each
 * worked out once: Find swaps asks it of a page of offers against one roster.
 */
export function swapChecker(pilot: RosterOf, given: Pick<TripTimes, 'id'> | null, limits: FlightTimeLimits): (taken: TripTimes) => Legality {
  const made = keptChecks(pilot, given ?? NOTHING_GIVEN, limits);
  return (taken) => {
    let legality = made.get(taken);
    if (!legality) {
      legality = checkSwap(pilot.roster, given, taken, limits, pilot.base, HOME_ZONE);
      made.set(taken, legality);
    }
    return legality;
  };
}

/** The 409 of a swap that breaks a limit: the check's sentences, verbatim. */
export function refusalOf(legality: Legality): string {
  return legality.reasons.join('. ');
}

/** Checks are kept from one request to the next (checksMade), and so is their JSON. */
const jsonOf = new WeakMap<Legality, string>();

/** A Find swaps row's legality, as the JSON text that ends the row. */
export function legalityJson(legality: Legality): string {
  let json = jsonOf.get(legality);
  if (json === undefined) {
    json = `,"legal":${legality.legal === 'unknown' ? '"unknown"' : String(legality.legal)},"reasons":${JSON.stringify(legality.reasons)}`;
    jsonOf.set(legality, json);
  }
  return json;
}

