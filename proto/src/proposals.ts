import { z } from 'zod';
import { Fleet } from './common';
import { PilotContact } from './pilot';
import { MAX_DECLINE_REASON, MAX_PROPOSAL_NOTE, MAX_REFUSAL_REASON } from './proposal-words';
import { Trip } from './trip';
import { LegalityAnswer } from './flight-times';

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
/**
 * The proposer's side: a pilot who picks up a give-away gives nothing, so their trip is null
 * (issue 53); in a swap it is always there.
 */
export const ProposerSide = z.object({ pilot: PilotContact, trip: Trip.nullable() });
export type ProposerSide = z.infer<typeof ProposerSide>;

/** A swap (a trip for a trip) or a give-away (one trip, picked up for nothing). */
export const AgreementKind = z.enum(['swap', 'giveaway']);
export type AgreementKind = z.infer<typeof AgreementKind>;

export const SwapProposal = z.object({
  id: z.uuid(),
  status: ProposalStatus,
  /** The pilot who proposed and the trip they give (the trip Find swaps was pressed on; null for a pick-up). */
  proposer: ProposerSide,
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
  kind: AgreementKind.default('swap'),
  /** Crewing's reason when it refused (the desk's words), else null. */
  reason: z.string().nullable().default(null),
  proposer: ProposerSide,
  owner: SwapSide,
  agreedAt: z.string(),
  /** When it was cancelled or crewing answered. */
  closedAt: z.string().nullable(),
  /** The pilot who cancelled it, or the administrator who decided it at the crewing desk. */
  closedBy: z.uuid().nullable(),
});
export type SwapAgreement = z.infer<typeof SwapAgreement>;

export const ProposeSwapBody = z.strictObject({
  offeredTripId: z.uuid('Choose the offered trip to swap for'),
  /** Null picks up a give-away (an offer of type 'giveaway' or 'either'): nothing is given in return. */
  myTripId: z.uuid('Choose one of your trips to give').nullable(),
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


/** POST /api/swaps/proposals/{id}/counter: the counter-proposal, and the one it answers. */
export const CounterProposalResponse = z.object({ proposal: SwapProposal, countered: SwapProposal });
/** POST /api/swaps/proposals/{id}/accept. */
export const AcceptProposalResponse = z.object({ proposal: SwapProposal, agreement: SwapAgreement });

/**
 * The crewing desk (issue 53, admin permission manage_swaps): agreements waiting for crewing,
 * and crewing's decisions. `pending` is an agreement whose status is 'agreed'.
 */
export const SWAP_REQUEST_STATUSES = ['pending', 'approved', 'refused'] as const;
export const SwapRequestStatus = z.enum(SWAP_REQUEST_STATUSES, "status must be 'pending', 'approved' or 'refused'");
export type SwapRequestStatus = z.infer<typeof SwapRequestStatus>;
export { MAX_REFUSAL_REASON };

export const SwapRequestsQuery = z.strictObject({
  status: SwapRequestStatus.optional(),
  fleet: Fleet.optional(),
});
export type SwapRequestsQuery = z.infer<typeof SwapRequestsQuery>;

export const SwapRequest = z.object({
  /** The agreement's id. */
  id: z.uuid(),
  status: SwapRequestStatus,
  kind: AgreementKind,
  agreedAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The administrator who decided it. */
  decidedBy: z.uuid().nullable(),
  /** Crewing's reason for a refusal. */
  reason: z.string().nullable(),
  /** The note the proposer wrote. */
  note: z.string().nullable(),
  /** The pilot who proposed (or picked up) and the trip they give (null for a give-away). */
  proposer: ProposerSide,
  /** The offer's owner and the offered trip. */
  owner: SwapSide,
  /** What crewing should know before approving: a trip changed since the agreement, a pilot who would clash. */
  warnings: z.array(z.string()),
  /**
   * The flight time limitations check of a pending request for each pilot, on their roster as it
   * would be after the move (issue 55); null once decided. The owner's is null for a give-away (they take nothing).
   */
  legality: z.object({ proposer: LegalityAnswer, owner: LegalityAnswer.nullable() }).nullable().default(null),
});
export type SwapRequest = z.infer<typeof SwapRequest>;
/** GET /api/admin/swap-requests: oldest agreement first, decided ones after the pending, newest decisions last. */
export const SwapRequestList = z.object({ requests: z.array(SwapRequest) });
export type SwapRequestList = z.infer<typeof SwapRequestList>;

export const RefuseSwapRequestBody = z.strictObject({
  reason: z
    .string('Please give a reason')
    .trim()
    .min(1, 'Please give a reason')
    .max(MAX_REFUSAL_REASON, `The reason can be at most ${MAX_REFUSAL_REASON} characters`),
});
export type RefuseSwapRequestBody = z.infer<typeof RefuseSwapRequestBody>;

/** GET /api/swaps/giveaways: give-away trips (offer type 'giveaway' or 'either') the pilot could fly. */
export const GiveawaysQuery = z.strictObject({ from: z.iso.date('from must be a date (YYYY-MM-DD)'), to: z.iso.date('to must be a date (YYYY-MM-DD)') });
export type GiveawaysQuery = z.infer<typeof GiveawaysQuery>;
export const Giveaway = z.object({ trip: Trip, owner: PilotContact });
export type Giveaway = z.infer<typeof Giveaway>;
export const GiveawayList = z.array(Giveaway);

/**
 * Approved at the crewing desk: the trips that change hands (trips applies them, once per
 * agreement). In a swap both move; in a give-away the one trip moves to the pilot who picked it up.
 */
export const TripMove = z.object({ tripId: z.uuid(), fromPilotId: z.uuid(), toPilotId: z.uuid() });
export type TripMove = z.infer<typeof TripMove>;

/** Events (stream SWAPS). */
export const ProposalEvent = z.object({ proposal: SwapProposal, by: z.uuid() });
export const AgreementEvent = z.object({
  agreement: SwapAgreement,
  by: z.uuid(),
  /** On swaps.agreement.approved from the crewing desk: the trips that change hands. */
  moves: z.array(TripMove).optional(),
});

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
