import { badRequest, conflict, notFound, type Clock, type Executor } from '@crewswap/kit';
import { PROPOSAL_MESSAGES, type SwapSide, type Trip } from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import type { PilotRecord, ReadModelRepository } from '../../data/read-model';
import { tripWindow } from '../compatibility';
import { isMutual, offersFor } from '../swap-rule';

/**
 * What proposing and countering share: reading a pilot and one of their trips from the read model,
 * and asking the one swap rule (domain/swap-rule.ts) whether two trips fit.
 */
export function createSwapSides(deps: { readModel: ReadModelRepository; proposals: ProposalRepository; clock: Clock }) {
  const { readModel, proposals, clock } = deps;
  return {
    /** A live trip of this pilot that has not started and is in no agreed swap, with its pilot. */
    async side(input: { pilotId: string; tripId: string; missing: string }, ex: Executor): Promise<SwapSide & { record: PilotRecord }> {
      const trip = await readModel.findTrip(input.tripId, ex);
      if (!trip || trip.pilotId !== input.pilotId) throw notFound(input.missing);
      const record = await readModel.findPilot(input.pilotId, ex);
      if (!record || record.deleted) throw notFound(input.missing);
      if (trip.startDate <= clock.today()) throw badRequest(PROPOSAL_MESSAGES.started);
      if (await proposals.tripsTaken([trip.id], ex)) throw conflict(PROPOSAL_MESSAGES.tripTaken);
      return { pilot: record.contact, trip, record };
    },

    /** Whether `other` is a swap the rule allows for `asker`'s trip, inside that trip's window. */
    async fits(asker: { record: PilotRecord; trip: Trip }, other: Trip, ex: Executor): Promise<boolean> {
      const settingDays = await readModel.swapSearchDays(ex);
      const window = tripWindow(asker.trip, asker.record.searchDayRange, settingDays);
      return proposals.fits(offersFor({ asker: asker.record, trip: asker.trip, window }), other.id, ex);
    },

    /** Whether the other side could take the asker's trip too: Mutual, by the one swap rule. */
    async mutual(asker: { record: PilotRecord; trip: Trip }, other: { record: PilotRecord; trip: Trip }, ex: Executor): Promise<boolean> {
      const [mine, theirs] = await Promise.all([
        readModel.findAskContext(asker.trip.id, asker.record.id, ex),
        readModel.findAskContext(other.trip.id, other.record.id, ex),
      ]);
      if (!mine.trip || !theirs.trip) return false;
      const side = (record: PilotRecord, trip: Trip, otherTrips: typeof mine.askerOtherTrips) => ({ pilot: record, trip, otherTrips });
      return isMutual({ asker: side(asker.record, mine.trip, mine.askerOtherTrips), offer: side(other.record, theirs.trip, theirs.askerOtherTrips), settingDays: mine.settingDays });
    },
  };
}
export type SwapSides = ReturnType<typeof createSwapSides>;
