import { randomUUID } from 'node:crypto';
import { badRequest, conflict, isUniqueViolation, notFound, type Clock, type Db } from '@crewswap/kit';
import { PROPOSAL_MESSAGES, SUBJECTS, type ProposeSwapBody, type SwapProposal } from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import type { ProposalEvents } from './events';
import type { SwapSides } from './sides';

/** Propose Swap: my trip (the one Find swaps was pressed on) for another pilot's offered trip. */
export function createProposeSwap(deps: { db: Db; proposals: ProposalRepository; sides: SwapSides; events: ProposalEvents; clock: Clock }) {
  const { db, proposals, sides, events, clock } = deps;
  return {
    async execute(input: { pilotId: string; body: ProposeSwapBody }): Promise<SwapProposal> {
      const { offeredTripId, myTripId } = input.body;
      try {
        return await db.transaction(async (trx) => {
          const mine = await sides.side({ pilotId: input.pilotId, tripId: myTripId, missing: PROPOSAL_MESSAGES.myTripNotFound }, trx);
          const offered = await trx('trips').where({ id: offeredTripId, deleted: false }).first('pilot_id', 'is_swappable');
          if (!offered || !offered.is_swappable) throw notFound(PROPOSAL_MESSAGES.offerNotFound);
          if (offered.pilot_id === input.pilotId) throw badRequest(PROPOSAL_MESSAGES.ownTrip);
          const theirs = await sides.side({ pilotId: offered.pilot_id, tripId: offeredTripId, missing: PROPOSAL_MESSAGES.offerNotFound }, trx);
          if (!(await sides.fits(mine, theirs.trip, trx))) throw badRequest(PROPOSAL_MESSAGES.notCompatible);
          const proposal = await proposals.insert(
            { id: randomUUID(), proposer: { pilot: mine.pilot, trip: mine.trip }, owner: { pilot: theirs.pilot, trip: theirs.trip }, note: input.body.note || null, counterOf: null, mutual: await sides.mutual(mine, theirs, trx), at: clock.now() },
            trx,
          );
          await events.proposal(trx, SUBJECTS.proposalMade, proposal, input.pilotId);
          return proposal;
        });
      } catch (error) {
        if (isUniqueViolation(error, 'proposals_one_open')) throw conflict(PROPOSAL_MESSAGES.alreadyProposed);
        throw error;
      }
    },
  };
}
export type ProposeSwap = ReturnType<typeof createProposeSwap>;
