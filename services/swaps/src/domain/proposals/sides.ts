import { badRequest, conflict, notFound, type Clock, type Executor } from '@crewswap/kit';
import { parseSwapSearchDays, PROPOSAL_MESSAGES, tripWindow, type SwapSide } from '@crewswap/proto';
import type { ProposalRepository, SideRow } from '../../data/proposals';
import type { PilotRecord } from '../../data/read-model';
import { isMutual, offersFor, type Constraint, type DayRange } from '../../rules/swap-rule';

/** One side of a swap, checked: a pilot and one of their trips, as proposing and the rule read them. */
export type CheckedSide = SwapSide & { record: PilotRecord; otherTrips: DayRange[] };

/**
 * What proposing and countering share: reading both sides of a swap from the read model in one
 * round trip, and the one swap rule (rules/swap-rule.ts): what it asks of the other trip, and Mutual.
 */
export function createSwapSides(deps: { proposals: ProposalRepository; clock: Clock }) {
  const { proposals, clock } = deps;
  return {
    /** These live trips with their pilots (by trip id), and the swap_search_days setting. */
    async read(tripIds: string[], ex: Executor): Promise<{ byTrip: Map<string, SideRow>; settingDays: number }> {
      const { sides, setting } = await proposals.sidesOf(tripIds, ex);
      return { byTrip: new Map(sides.map((side) => [side.trip.id, side])), settingDays: parseSwapSearchDays(setting) };
    },

    /** A live trip of this pilot that has not started and is in no agreed swap, with its pilot; else the refusal. */
    check(side: SideRow | undefined, input: { pilotId: string; missing: string }): CheckedSide {
      if (!side || side.trip.pilotId !== input.pilotId || !side.record || side.record.deleted) throw notFound(input.missing);
      if (side.trip.startDate <= clock.today()) throw badRequest(PROPOSAL_MESSAGES.started);
      if (side.taken) throw conflict(PROPOSAL_MESSAGES.tripTaken);
      return { pilot: side.record.contact, trip: side.trip, record: side.record, otherTrips: side.otherTrips };
    },

    /** What the rule asks of the other trip for a swap with `asker`'s, inside that trip's window. */
    fitting(asker: CheckedSide, settingDays: number): Constraint {
      const window = tripWindow(asker.trip, asker.record.searchDayRange, settingDays);
      return offersFor({ asker: asker.record, trip: asker.trip, window });
    },

    /** Whether the other side could take the asker's trip too: Mutual, by the one swap rule. */
    mutual(asker: CheckedSide, other: CheckedSide, settingDays: number): boolean {
      const side = ({ record, trip, otherTrips }: CheckedSide) => ({ pilot: record, trip, otherTrips });
      return isMutual({ asker: side(asker), offer: side(other), settingDays });
    },
  };
}
export type SwapSides = ReturnType<typeof createSwapSides>;
