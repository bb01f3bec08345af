import { conflict, notFound, type Clock, type Db } from '@crewswap/kit';
import { PROPOSAL_MESSAGES, SUBJECTS, type CrewingBody, type SwapAgreement, type SwapProposal } from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import type { ProposalEvents } from './events';

type Deps = { db: Db; proposals: ProposalRepository; events: ProposalEvents; clock: Clock };

const isParty = (agreement: SwapAgreement, pilotId: string) => agreement.proposer.pilot.id === pilotId || agreement.owner.pilot.id === pilotId;

/**
 * Cancel: the proposer withdraws an open proposal, or either pilot cancels an agreed swap before
 * crewing answers (its trips are free again; the offers are not restored: the owner re-offers).
 */
export function createCancelProposal(deps: Deps) {
  const { db, proposals, events, clock } = deps;
  return {
    async execute(input: { pilotId: string; id: string }): Promise<SwapProposal> {
      return db.transaction(async (trx) => {
        const proposal = await proposals.find(input.id, trx, true);
        if (!proposal || (proposal.proposerId !== input.pilotId && proposal.ownerId !== input.pilotId)) throw notFound(PROPOSAL_MESSAGES.proposalNotFound);
        const at = clock.now();
        if (proposal.status === 'open') {
          // The owner answers an open proposal with Decline, not Cancel.
          if (proposal.proposerId !== input.pilotId) throw notFound(PROPOSAL_MESSAGES.proposalNotFound);
          const cancelled = await proposals.setStatus(input.id, { status: 'cancelled', at }, trx);
          await events.proposal(trx, SUBJECTS.proposalCancelled, cancelled, input.pilotId);
          return cancelled;
        }
        const agreement = proposal.status === 'accepted' && proposal.agreementId ? await proposals.findAgreement(proposal.agreementId, trx, true) : undefined;
        if (!agreement || agreement.status !== 'agreed') throw conflict(agreement ? PROPOSAL_MESSAGES.crewingAnswered : PROPOSAL_MESSAGES.notCancellable);
        const closed = await proposals.closeAgreement(agreement.id, { status: 'cancelled', by: input.pilotId, at }, trx);
        const cancelled = await proposals.setStatus(input.id, { status: 'cancelled', at }, trx);
        await events.proposal(trx, SUBJECTS.proposalCancelled, cancelled, input.pilotId);
        await events.agreement(trx, SUBJECTS.agreementCancelled, closed, input.pilotId);
        return cancelled;
      });
    },
  };
}
export type CancelProposal = ReturnType<typeof createCancelProposal>;

/** Either pilot records crewing's answer once; a refused swap frees its trips, an approved one stays in history. */
export function createRecordCrewing(deps: Deps) {
  const { db, proposals, events, clock } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: CrewingBody }): Promise<SwapAgreement> {
      return db.transaction(async (trx) => {
        const agreement = await proposals.findAgreement(input.id, trx, true);
        if (!agreement || !isParty(agreement, input.pilotId)) throw notFound(PROPOSAL_MESSAGES.agreementNotFound);
        if (agreement.status !== 'agreed') throw conflict(agreement.status === 'cancelled' ? PROPOSAL_MESSAGES.notAgreed : PROPOSAL_MESSAGES.crewingAnswered);
        const closed = await proposals.closeAgreement(agreement.id, { status: input.body.status, by: input.pilotId, at: clock.now() }, trx);
        await events.agreement(trx, input.body.status === 'approved' ? SUBJECTS.agreementApproved : SUBJECTS.agreementRefused, closed, input.pilotId);
        return closed;
      });
    },
  };
}
export type RecordCrewing = ReturnType<typeof createRecordCrewing>;
