import { conflict, notFound, type Clock, type Db, type Executor } from '@crewswap/kit';
import { PROPOSAL_MESSAGES, SUBJECTS, type SwapAgreement, type SwapProposal } from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import type { ProposalEvents } from './events';

type Deps = { db: Db; proposals: ProposalRepository; events: ProposalEvents; clock: Clock };

const isParty = (agreement: SwapAgreement, pilotId: string) => agreement.proposer.pilot.id === pilotId || agreement.owner.pilot.id === pilotId;

/**
 * Cancel: the proposer withdraws an open proposal. Only an open one: an accept racing this
 * cancel wins or loses whole (cancelOpen is conditional), and an agreed swap is cancelled as
 * such (createCancelAgreement), never by a tap meant for the proposal.
 */
export function createCancelProposal(deps: Deps) {
  const { db, proposals, events, clock } = deps;
  return {
    async execute(input: { pilotId: string; id: string }): Promise<SwapProposal> {
      return db.transaction(async (trx) => {
        const cancelled = await proposals.cancelOpen(input.id, input.pilotId, clock.now(), trx);
        if (!cancelled) {
          // The owner answers an open proposal with Decline, not Cancel: theirs is answered like an unknown one.
          const proposal = await proposals.find(input.id, trx);
          if (!proposal || proposal.proposerId !== input.pilotId) throw notFound(PROPOSAL_MESSAGES.proposalNotFound);
          throw conflict(proposal.status === 'accepted' ? PROPOSAL_MESSAGES.alreadyAccepted : PROPOSAL_MESSAGES.notOpen);
        }
        await events.proposal(trx, SUBJECTS.proposalCancelled, cancelled, input.pilotId);
        return cancelled;
      });
    },
  };
}
export type CancelProposal = ReturnType<typeof createCancelProposal>;

/** Either pilot cancels an agreed swap before crewing answers: its trips are free again (the offers are not restored: the owner re-offers). */
export function createCancelAgreement(deps: Deps) {
  const { db, proposals, events, clock } = deps;
  return {
    async execute(input: { pilotId: string; id: string }): Promise<SwapAgreement> {
      return db.transaction(async (trx) => {
        const agreement = await proposals.findAgreement(input.id, trx, true);
        if (!agreement || !isParty(agreement, input.pilotId)) throw notFound(PROPOSAL_MESSAGES.agreementNotFound);
        if (agreement.status !== 'agreed') throw conflict(agreement.status === 'cancelled' ? PROPOSAL_MESSAGES.notCancellable : PROPOSAL_MESSAGES.crewingAnswered);
        return cancelAgreedSwap({ proposals, events }, trx, { agreement, by: input.pilotId, at: clock.now() });
      });
    },
  };
}
export type CancelAgreement = ReturnType<typeof createCancelAgreement>;

/**
 * Ends an agreed swap (locked by the caller): its trips are free, its proposal is cancelled, and
 * the events tell both pilots (notifications and realtime) and trips (no longer 'Swap agreed').
 */
export async function cancelAgreedSwap(
  deps: { proposals: ProposalRepository; events: ProposalEvents },
  trx: Executor,
  input: { agreement: SwapAgreement; by: string; at: Date },
): Promise<SwapAgreement> {
  const { agreement, by, at } = input;
  const closed = await deps.proposals.closeAgreement(agreement.id, { status: 'cancelled', by, at }, trx);
  const cancelled = await deps.proposals.setStatus(agreement.proposalId, { status: 'cancelled', at }, trx);
  await deps.events.proposal(trx, SUBJECTS.proposalCancelled, cancelled, by);
  await deps.events.agreement(trx, SUBJECTS.agreementCancelled, closed, by);
  return closed;
}
