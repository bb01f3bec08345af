import { z } from 'zod';
import { PilotContact } from './pilot';
import { MAX_DECLINE_REASON, MAX_PROPOSAL_NOTE } from './proposal-words';
import { Trip } from './trip';

export * from './proposal-words';

/**
 * Swap proposals and agreements (issue 37): a pilot proposes one of their trips for another
 * pilot's offered trip; the owner accepts, declines or counters; an accepted proposal is an
 * agreement that crewing approves or refuses.
 */

export const ProposalStatus = z.enum(['open', 'accepted', 'declined', 'countered', 'cancelled', 'expired']);
export type ProposalStatus = z.infer<typeof ProposalStatus>;
export const AgreementStatus = z.enum(['agreed', 'cancelled', 'approved', 'refused']);
export type AgreementStatus = z.infer<typeof AgreementStatus>;

/** The trip a pilot gives and the pilot giving it, as it was when the proposal was made. */
export const SwapSide = z.object({ pilot: PilotContact, trip: Trip });
export type SwapSide = z.infer<typeof SwapSide>;

export const SwapProposal = z.object({
  id: z.uuid(),
  status: ProposalStatus,
  /** The pilot who proposed and the trip they give (the trip Find swaps was pressed on). */
  proposer: SwapSide,
  /** The offer's owner and the offered trip. */
  owner: SwapSide,
  note: z.string().nullable(),
  /** Why it was declined or expired, in words for the proposer. */
  reason: z.string().nullable(),
  /** The proposal this one answers with another trip. */
  counterOf: z.uuid().nullable(),
  agreementId: z.uuid().nullable(),
  /** The owner could also take the proposer's trip (the swap rule both ways, as Find swaps marks Mutual), when it was made. */
  mutual: z.boolean().default(false),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type SwapProposal = z.infer<typeof SwapProposal>;

/** A proposal as the signed-in pilot sees it in their list. */
export const SwapProposalView = SwapProposal.extend({
  role: z.enum(['received', 'sent']),
  /** For the owner: taking the proposer's trip overlaps another of the owner's own trips. */
  clashes: z.boolean(),
});
export type SwapProposalView = z.infer<typeof SwapProposalView>;

export const SwapAgreement = z.object({
  id: z.uuid(),
  proposalId: z.uuid(),
  status: AgreementStatus,
  proposer: SwapSide,
  owner: SwapSide,
  agreedAt: z.string(),
  /** When it was cancelled or crewing answered. */
  closedAt: z.string().nullable(),
  /** Who cancelled it or recorded crewing's answer. */
  closedBy: z.uuid().nullable(),
});
export type SwapAgreement = z.infer<typeof SwapAgreement>;

export const ProposeSwapBody = z.strictObject({
  offeredTripId: z.uuid('Choose the offered trip to swap for'),
  myTripId: z.uuid('Choose one of your trips to give'),
  note: z.string('The note must be text').trim().max(MAX_PROPOSAL_NOTE, `The note can be at most ${MAX_PROPOSAL_NOTE} characters`).optional(),
});
export type ProposeSwapBody = z.infer<typeof ProposeSwapBody>;

export const ProposalListQuery = z.strictObject({
  role: z.enum(['received', 'sent'], "role must be 'received' or 'sent'").optional(),
  status: z.enum(ProposalStatus.options, `status must be one of ${ProposalStatus.options.join(', ')}`).optional(),
});
export type ProposalListQuery = z.infer<typeof ProposalListQuery>;

export const DeclineProposalBody = z.strictObject({
  reason: z.string('The reason must be text').trim().max(MAX_DECLINE_REASON, `The reason can be at most ${MAX_DECLINE_REASON} characters`).optional(),
});
export type DeclineProposalBody = z.infer<typeof DeclineProposalBody>;

export const CounterProposalBody = z.strictObject({
  tripId: z.uuid('Choose one of your trips to offer instead'),
  note: z.string('The note must be text').trim().max(MAX_PROPOSAL_NOTE, `The note can be at most ${MAX_PROPOSAL_NOTE} characters`).optional(),
});
export type CounterProposalBody = z.infer<typeof CounterProposalBody>;

export const CrewingBody = z.strictObject({
  status: z.enum(['approved', 'refused'], "status must be 'approved' or 'refused'"),
});
export type CrewingBody = z.infer<typeof CrewingBody>;

/** POST /api/swaps/proposals/{id}/counter: the counter-proposal, and the one it answers. */
export const CounterProposalResponse = z.object({ proposal: SwapProposal, countered: SwapProposal });
/** POST /api/swaps/proposals/{id}/accept. */
export const AcceptProposalResponse = z.object({ proposal: SwapProposal, agreement: SwapAgreement });

/** Events (stream SWAPS). */
export const ProposalEvent = z.object({ proposal: SwapProposal, by: z.uuid() });
export const AgreementEvent = z.object({ agreement: SwapAgreement, by: z.uuid() });

/** GET /api/admin/swaps/proposal-stats: the admin dashboard's figures, by the proposer's fleet and rank. */
export const ProposalStatsRow = z.object({
  fleet: z.string(),
  rank: z.string(),
  made: z.number().int().min(0),
  agreed: z.number().int().min(0),
  cancelled: z.number().int().min(0),
  approved: z.number().int().min(0),
});
export const ProposalStats = z.object({ days: z.number().int(), rows: z.array(ProposalStatsRow) });
export type ProposalStats = z.infer<typeof ProposalStats>;
