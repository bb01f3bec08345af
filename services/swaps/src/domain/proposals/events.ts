import type { Executor, Outbox, OutboxRow } from '@crewswap/kit';
import { SUBJECTS, type SwapAgreement, type SwapProposal } from '@crewswap/proto';

type ProposalSubject =
  | typeof SUBJECTS.proposalMade
  | typeof SUBJECTS.proposalAccepted
  | typeof SUBJECTS.proposalDeclined
  | typeof SUBJECTS.proposalCountered
  | typeof SUBJECTS.proposalCancelled
  | typeof SUBJECTS.proposalExpired;
type AgreementSubject = typeof SUBJECTS.agreementMade | typeof SUBJECTS.agreementCancelled | typeof SUBJECTS.agreementApproved | typeof SUBJECTS.agreementRefused;

/** Every proposal and agreement change goes out through the outbox, in the transaction that made it. */
export function createProposalEvents(outbox: Outbox) {
  return {
    proposal: (trx: Executor, subject: ProposalSubject, proposal: SwapProposal, by: string) => outbox.write(trx, subject, { proposal, by }),
    agreement: (trx: Executor, subject: AgreementSubject, agreement: SwapAgreement, by: string) => outbox.write(trx, subject, { agreement, by }),
    /** The outbox rows of an event, for a statement that writes them beside its change; then `written`. */
    proposalRows: (subject: ProposalSubject, proposal: SwapProposal, by: string): OutboxRow[] => outbox.rows(subject, [{ data: { proposal, by } }]),
    agreementRows: (subject: AgreementSubject, agreement: SwapAgreement, by: string): OutboxRow[] => outbox.rows(subject, [{ data: { agreement, by } }]),
    written: (ex: Executor) => outbox.written(ex),
  };
}
export type ProposalEvents = ReturnType<typeof createProposalEvents>;
