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
 * One pilot's check of trips they might take, giving `given` away (null: nothing, a pick-up), each
 * worked out once: Find swaps asks it of a page of offers against one roster.
 */
export function swapChecker(pilot: RosterOf, given: { id: string } | null, limits: FlightTimeLimits): (taken: TripTimes) => Legality {
  const known = new Map<string, Legality>();
  return (taken) => {
    let legality = known.get(taken.id);
    if (!legality) {
      legality = checkSwap(pilot.roster, given, taken, limits, pilot.base, HOME_ZONE);
      known.set(taken.id, legality);
    }
    return legality;
  };
}

/** The 409 of a swap that breaks a limit: the check's sentences, verbatim. */
export function refusalOf(legality: Legality): string {
  return legality.reasons.join('. ');
}

/** A Find swaps row's legality, as the JSON text that ends the row. */
export function legalityJson(legality: Legality): string {
  return `,"legal":${legality.legal === 'unknown' ? '"unknown"' : String(legality.legal)},"reasons":${JSON.stringify(legality.reasons)}`;
}
