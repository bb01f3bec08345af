import { notFound } from '@crewswap/kit';
import { monthTotals, monthTotalsAfterSwap, TRIP_MESSAGES, type DutyAllowances, type PilotMonthQuery, type PilotMonthResponse } from '@crewswap/proto';
import { HOME_ZONE, type TripRepository } from '../data/trips';

/**
 * A pilot's month (issue 55): block, duty, days away and days off, and with `with` (any pilot's
 * offered trip) and `without` (one of the pilot's own) the same as the roster would be after that
 * swap, so the pilot sees what it does to the month before proposing.
 */
export function createGetPilotMonth(deps: { trips: TripRepository; allowances: () => DutyAllowances }) {
  const { trips, allowances } = deps;
  return {
    async execute(input: { pilotId: string; query: PilotMonthQuery }): Promise<PilotMonthResponse> {
      const { month, with: withId, without: withoutId } = input.query;
      const roster = await trips.listByPilot(input.pilotId);
      const taken = withId === undefined ? null : await trips.findAny(withId);
      if (taken === undefined) throw notFound(TRIP_MESSAGES.tripNotFound);
      // Only the pilot's own trip can be given away; another's is as good as missing.
      const given = withoutId === undefined ? null : roster.find((trip) => trip.id === withoutId);
      if (given === undefined) throw notFound(TRIP_MESSAGES.tripNotFound);
      const totals = monthTotals(roster, month, HOME_ZONE, allowances());
      const swapped = taken !== null || given !== null;
      return { month, totals, after: swapped ? monthTotalsAfterSwap(roster, month, HOME_ZONE, { given, taken }, allowances()) : null };
    },
  };
}
export type GetPilotMonth = ReturnType<typeof createGetPilotMonth>;
