import { randomUUID } from 'node:crypto';
import { badRequest, conflict, isUniqueViolation, notFound, type Clock, type Db, type Executor } from '@crewswap/kit';
import {
  EXPIRY_REASONS,
  PROPOSAL_MESSAGES,
  SUBJECTS,
  type CounterProposalBody,
  type DeclineProposalBody,
  type SwapAgreement,
  type SwapProposal,
} from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import type { ProposalEvents } from './events';
import type { SwapSides } from './sides';
import type { SwapCheck } from '../swap-legality';

type Deps = { db: Db; proposals: ProposalRepository; events: ProposalEvents; clock: Clock };

/** The owner's open proposal, locked; another pilot's proposal is answered like an unknown one. */
async function ownersOpenProposal(proposals: ProposalRepository, input: { pilotId: string; id: string }, trx: Executor) {
  const proposal = await proposals.find(input.id, trx, true);
  if (!proposal || proposal.ownerId !== input.pilotId) throw notFound(PROPOSAL_MESSAGES.proposalNotFound);
  if (proposal.status !== 'open') throw conflict(await whyClosed(proposals, proposal, trx));
  return proposal;
}

/** Why a proposal the owner answers is no longer open, in the words of what happened. */
async function whyClosed(proposals: ProposalRepository, proposal: SwapProposal, trx: Executor): Promise<string> {
  // The loser of two accepts racing for one trip: its proposal was declined by the winner.
  if (proposal.status === 'declined' && proposal.reason === PROPOSAL_MESSAGES.tripNoLongerAvailable) return PROPOSAL_MESSAGES.tripTaken;
  // Cancelled with an agreement: the swap was agreed, then cancelled; without one, the proposer withdrew it.
  if (proposal.status === 'cancelled' && !proposal.agreementId) return PROPOSAL_MESSAGES.withdrawn;
  if (proposal.status === 'expired' && proposal.reason === EXPIRY_REASONS.deleted) {
    const states = await proposals.tripStates(proposal.id, trx);
    return states?.proposerTripLive === false ? PROPOSAL_MESSAGES.proposerTripGone : PROPOSAL_MESSAGES.offerWithdrawn;
  }
  return PROPOSAL_MESSAGES.notOpen;
}

/**
 * Accept: the swap is agreed. Both trips are locked (lower id first) before the proposal, so two
 * accepts that share a trip run one after the other and the second finds it taken; both trips are
 * claimed for the agreement (agreement_trips refuses a trip already claimed), every other open
 * proposal on either trip is declined, and the events tell both pilots, crewing's mail and trips
 * (which withdraws both offers). Five round trips, the transaction's own and the swap check's one
 * read of both rosters and the limits included (six when other proposals are declined).
 */
export function createAcceptProposal(deps: Deps & { swapCheck: Pick<SwapCheck, 'refuseIfIllegal'> }) {
  const { db, proposals, events, clock } = deps;
  return {
    async execute(input: { pilotId: string; id: string }): Promise<{ proposal: SwapProposal; agreement: SwapAgreement }> {
      try {
        return await db.transaction(async (trx) => {
          const trips = await proposals.lockOpen(input.id, input.pilotId, trx);
          if (!trips) throw notFound(PROPOSAL_MESSAGES.proposalNotFound);
          const { proposerId: _proposer, ownerId: _owner, ...open } = trips.proposal;
          if (open.status !== 'open') throw conflict(await whyClosed(proposals, open, trx));
          // Only an offered trip is proposed for; a counter's is the trip its proposer gives, never offered.
          if (!trips.proposerTripLive) throw conflict(PROPOSAL_MESSAGES.proposerTripGone);
          if (!trips.ownerTripLive || (!open.counterOf && !trips.ownerTripOffered)) throw conflict(PROPOSAL_MESSAGES.offerWithdrawn);
          // Issue 55: a swap either pilot may not fly is refused, as when it was proposed (times may have come since).
          await deps.swapCheck.refuseIfIllegal({ proposer: { pilotId: open.proposer.pilot.id, trip: open.proposer.trip }, owner: { pilotId: open.owner.pilot.id, trip: open.owner.trip } }, trx);
          const { proposal, agreement, declined } = await proposals.agree(
            { proposal: open, agreementId: randomUUID(), at: clock.now(), declineReason: PROPOSAL_MESSAGES.tripNoLongerAvailable },
            (agreed) => [...events.proposalRows(SUBJECTS.proposalAccepted, agreed.proposal, input.pilotId), ...events.agreementRows(SUBJECTS.agreementMade, agreed.agreement, input.pilotId)],
            trx,
          );
          events.written(trx);
          for (const other of declined) await events.proposal(trx, SUBJECTS.proposalDeclined, other, input.pilotId);
          return { proposal, agreement };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'agreement_trips')) throw conflict(PROPOSAL_MESSAGES.tripTaken);
        throw error;
      }
    },
  };
}
export type AcceptProposal = ReturnType<typeof createAcceptProposal>;

export function createDeclineProposal(deps: Deps) {
  const { db, proposals, events, clock } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: DeclineProposalBody }): Promise<SwapProposal> {
      return db.transaction(async (trx) => {
        await ownersOpenProposal(proposals, input, trx);
        const proposal = await proposals.setStatus(input.id, { status: 'declined', reason: input.body.reason || null, at: clock.now() }, trx);
        await events.proposal(trx, SUBJECTS.proposalDeclined, proposal, input.pilotId);
        return proposal;
      });
    },
  };
}
export type DeclineProposal = ReturnType<typeof createDeclineProposal>;

/**
 * Counter: the owner answers with another of their trips that fits the proposer's trip (the one
 * swap rule, in the counter trip's window). The proposal is closed as countered and a new one goes
 * the other way: the owner now proposes their trip for the proposer's. A pick-up has no proposer's
 * trip to answer for: it is accepted or declined.
 */
export function createCounterProposal(deps: Deps & { sides: SwapSides }) {
  const { db, proposals, events, clock, sides } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: CounterProposalBody }): Promise<{ proposal: SwapProposal; countered: SwapProposal }> {
      try {
        return await db.transaction(async (trx) => {
          const original = await ownersOpenProposal(proposals, input, trx);
          const wanted = original.proposer.trip;
          if (!wanted) throw badRequest(PROPOSAL_MESSAGES.noCounterOnPickUp);
          if (input.body.tripId === original.owner.trip.id) throw badRequest(PROPOSAL_MESSAGES.counterSame);
          const { byTrip, settingDays } = await sides.read([input.body.tripId, wanted.id], trx);
          const mine = sides.check(byTrip.get(input.body.tripId), { pilotId: input.pilotId, missing: PROPOSAL_MESSAGES.counterNotFound });
          const theirs = sides.check(byTrip.get(wanted.id), { pilotId: original.proposerId, missing: PROPOSAL_MESSAGES.offerNotFound });
          const at = clock.now();
          const countered = await proposals.setStatus(input.id, { status: 'countered', at }, trx);
          await events.proposal(trx, SUBJECTS.proposalCountered, countered, input.pilotId);
          // A counter trip that does not fit is refused here, and the transaction takes the above back.
          const proposal = await proposals.insertIfFits(
            { id: randomUUID(), proposer: { pilot: mine.pilot, trip: mine.trip }, owner: { pilot: theirs.pilot, trip: theirs.trip }, note: input.body.note || null, counterOf: input.id, mutual: sides.mutual(mine, theirs, settingDays), at },
            sides.fitting(mine, settingDays),
            (made) => events.proposalRows(SUBJECTS.proposalMade, made, input.pilotId),
            trx,
          );
          if (!proposal) throw badRequest(PROPOSAL_MESSAGES.counterNotCompatible);
          events.written(trx);
          return { proposal, countered };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'proposals_one_open')) throw conflict(PROPOSAL_MESSAGES.alreadyProposed);
        throw error;
      }
    },
  };
}
export type CounterProposal = ReturnType<typeof createCounterProposal>;
