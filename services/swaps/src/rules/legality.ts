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
 * Checks made, by roster array, then by what is given, the base and the limits, then by the trip
 * taken: a held roster (data/roster-cache.ts) and the offer index's trips are the same objects from
 * one request to the next, so a pilot paging through or searching again is not checked again. A
 * roster read afresh is a new array, and its checks go with it.
 */
const checksMade = new WeakMap<readonly TripTimes[], Map<string, WeakMap<TripTimes, Legality>>>();
/** Limits by a short number (their JSON, once per limits object): a long key was most of a lookup. */
const limitsIds = new WeakMap<FlightTimeLimits, number>();
const limitsByJson = new Map<string, number>();
function limitsKey(limits: FlightTimeLimits): number {
  let id = limitsIds.get(limits);
  if (id === undefined) {
    const json = JSON.stringify(limits);
    id = limitsByJson.get(json);
    if (id === undefined) limitsByJson.set(json, (id = limitsByJson.size));
    limitsIds.set(limits, id);
  }
  return id;
}

/**
 * One pilot's check of trips they might take, giving `given` away (null: nothing, a pick-up), each
 * worked out once: Find swaps asks it of a page of offers against one roster.
 */
export function swapChecker(pilot: RosterOf, given: { id: string } | null, limits: FlightTimeLimits): (taken: TripTimes) => Legality {
  let byCase = checksMade.get(pilot.roster);
  if (!byCase) checksMade.set(pilot.roster, (byCase = new Map()));
  const key = `${given?.id ?? ''} ${pilot.base} ${limitsKey(limits)}`;
  let known = byCase.get(key);
  if (!known) byCase.set(key, (known = new WeakMap()));
  const made = known;
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

