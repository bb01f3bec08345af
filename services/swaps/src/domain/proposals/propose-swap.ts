import { randomUUID } from 'node:crypto';
import { badRequest, conflict, isUniqueViolation, notFound, type Clock, type Db } from '@crewswap/kit';
import { PROPOSAL_MESSAGES, SUBJECTS, type ProposeSwapBody, type SwapProposal } from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import type { ProposalEvents } from './events';
import type { SwapSides } from './sides';

/**
 * Propose Swap: my trip (the one Find swaps was pressed on) for another pilot's offered trip.
 * Two round trips: both sides read, then the proposal and its event written in one statement if
 * the rule allows the swap (no transaction needed around it).
 */
export function createProposeSwap(deps: {
  db: Db;
  proposals: ProposalRepository;
  sides: SwapSides;
  events: ProposalEvents;
  clock: Clock;
  /** Reads, and for a while reads again, until the answer is found: the read model learns of trips and pilots from events. */
  awaitTrips: <T>(read: () => Promise<T>, found: (value: T) => boolean) => Promise<T>;
}) {
  const { db, proposals, sides, events, clock, awaitTrips } = deps;
  return {
    async execute(input: { pilotId: string; body: ProposeSwapBody }): Promise<SwapProposal> {
      const { offeredTripId, myTripId } = input.body;
      // A trip offered (or added, or a pilot registered) a moment ago may still be on its way
      // from trips (auth): waited for, rather than refused as not offered. Read once, as nearly always.
      const { byTrip, settingDays } = await awaitTrips(
        () => sides.read([myTripId, offeredTripId], db),
        (read) => {
          const [mine, offered] = [read.byTrip.get(myTripId), read.byTrip.get(offeredTripId)];
          return mine?.record !== undefined && offered?.record !== undefined && offered.isSwappable;
        },
      );
      const mine = sides.check(byTrip.get(myTripId), { pilotId: input.pilotId, missing: PROPOSAL_MESSAGES.myTripNotFound });
      const offered = byTrip.get(offeredTripId);
      if (!offered || !offered.isSwappable) throw notFound(PROPOSAL_MESSAGES.offerNotFound);
      if (offered.trip.pilotId === input.pilotId) throw badRequest(PROPOSAL_MESSAGES.ownTrip);
      const theirs = sides.check(offered, { pilotId: offered.trip.pilotId, missing: PROPOSAL_MESSAGES.offerNotFound });
      try {
        const proposal = await proposals.insertIfFits(
          { id: randomUUID(), proposer: { pilot: mine.pilot, trip: mine.trip }, owner: { pilot: theirs.pilot, trip: theirs.trip }, note: input.body.note || null, counterOf: null, mutual: sides.mutual(mine, theirs, settingDays), at: clock.now() },
          sides.fitting(mine, settingDays),
          (made) => events.proposalRows(SUBJECTS.proposalMade, made, input.pilotId),
          db,
        );
        if (!proposal) throw badRequest(PROPOSAL_MESSAGES.notCompatible);
        events.written(db);
        return proposal;
      } catch (error) {
        if (isUniqueViolation(error, 'proposals_one_open')) throw conflict(PROPOSAL_MESSAGES.alreadyProposed);
        throw error;
      }
    },
  };
}
export type ProposeSwap = ReturnType<typeof createProposeSwap>;
