import { conflict, notFound, type Clock, type Db, type Outbox, type Trx } from '@crewswap/kit';
import { PROPOSAL_MESSAGES, SUBJECTS, type SwapRequest, type SwapRequestsQuery } from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import type { DeskAgreement, SwapRequestRepository } from '../../data/swap-requests';
import { movesOf, problemsOf, type RequestProblems } from './checks';
import type { SwapCheck, SwapLegality, SwapParties } from '../swap-legality';

type Deps = { db: Db; requests: SwapRequestRepository; proposals: ProposalRepository; outbox: Outbox; clock: Clock; swapCheck: SwapCheck };

const partiesOf = ({ proposer, owner }: DeskAgreement['agreement']): SwapParties => ({
  proposer: { pilotId: proposer.pilot.id, trip: proposer.trip },
  owner: { pilotId: owner.pilot.id, trip: owner.trip },
});

const STATUS = { agreed: 'pending', approved: 'approved', refused: 'refused' } as const;

function toRequest({ agreement, note }: DeskAgreement, problems: RequestProblems | undefined, legality: SwapLegality | null = null): SwapRequest {
  const status = STATUS[agreement.status as keyof typeof STATUS];
  return {
    id: agreement.id,
    status,
    kind: agreement.kind,
    agreedAt: agreement.agreedAt,
    decidedAt: agreement.closedAt,
    decidedBy: agreement.closedBy,
    reason: agreement.reason,
    note,
    proposer: agreement.proposer,
    owner: agreement.owner,
    // A decided request is history: what changed since is no warning to anyone.
    warnings: status === 'pending' && problems ? [...problems.changed, ...problems.overlaps] : [],
    legality: status === 'pending' ? legality : null,
  };
}

/** The crewing desk's list: pending requests (with their warnings) oldest first, then decisions. */
export function createListSwapRequests(deps: Pick<Deps, 'requests' | 'swapCheck'>) {
  return {
    async execute(query: SwapRequestsQuery): Promise<SwapRequest[]> {
      const found = await deps.requests.list(query);
      const pending = found.filter((entry) => entry.agreement.status === 'agreed');
      const problems = new Map((await problemsOf(deps.requests, pending.map((entry) => entry.agreement))).map((p, i) => [pending[i]!.agreement.id, p]));
      // Issue 55: each pilot's flight time limitations check, as approving would make it.
      const checked = await deps.swapCheck.check(pending.map((entry) => partiesOf(entry.agreement)));
      const legality = new Map(checked.map((check, i) => [pending[i]!.agreement.id, check]));
      return found.map((entry) => toRequest(entry, problems.get(entry.agreement.id), legality.get(entry.agreement.id)));
    },
  };
}

/** The pending agreement, locked for this decision: a second admin deciding at once waits, then finds it decided. */
async function pendingAgreement(requests: SwapRequestRepository, id: string, trx: Trx): Promise<DeskAgreement> {
  const found = await requests.lock(id, trx);
  if (!found) throw notFound(PROPOSAL_MESSAGES.requestNotFound);
  if (found.agreement.status !== 'agreed') throw conflict(PROPOSAL_MESSAGES.requestNotPending);
  return found;
}

/**
 * Approve: in one swaps transaction the agreement is approved with the trips that change hands,
 * every other open proposal on either trip closes, and swaps.agreement.approved carries the moves
 * to trips, which moves the trips (once per agreement) and tells everything that shows them.
 */
export function createApproveSwapRequest(deps: Deps) {
  const { db, requests, proposals, outbox, clock } = deps;
  return {
    async execute(input: { adminId: string; id: string }): Promise<SwapRequest> {
      return db.transaction(async (trx) => {
        const { agreement } = await pendingAgreement(requests, input.id, trx);
        const [problems] = await problemsOf(requests, [agreement], trx);
        if (problems!.changed.length > 0) throw conflict(PROPOSAL_MESSAGES.requestTripChanged);
        if (problems!.overlaps.length > 0) throw conflict(PROPOSAL_MESSAGES.requestWouldOverlap);
        await deps.swapCheck.refuseIfIllegal(partiesOf(agreement), trx);
        const moves = movesOf(agreement);
        const at = clock.now();
        const approved = (await requests.decide(input.id, { status: 'approved', by: input.adminId, at, reason: null, moves }, trx))!;
        const closed = await requests.closeOpenProposalsOn(moves.map((move) => move.tripId), { reason: PROPOSAL_MESSAGES.tripNoLongerAvailable, at }, trx);
        for (const proposalId of closed) {
          const { proposerId: _proposer, ownerId: _owner, ...proposal } = (await proposals.find(proposalId, trx))!;
          await outbox.write(trx, SUBJECTS.proposalDeclined, { proposal, by: input.adminId });
        }
        await outbox.write(trx, SUBJECTS.agreementApproved, { agreement: approved.agreement, by: input.adminId, moves });
        return toRequest(approved, undefined);
      });
    },
  };
}

/** Refuse, with crewing's reason: nothing moves, and both trips are free again. */
export function createRefuseSwapRequest(deps: Deps) {
  const { db, requests, outbox, clock } = deps;
  return {
    async execute(input: { adminId: string; id: string; reason: string }): Promise<SwapRequest> {
      return db.transaction(async (trx) => {
        await pendingAgreement(requests, input.id, trx);
        const refused = (await requests.decide(input.id, { status: 'refused', by: input.adminId, at: clock.now(), reason: input.reason, moves: null }, trx))!;
        await outbox.write(trx, SUBJECTS.agreementRefused, { agreement: refused.agreement, by: input.adminId });
        return toRequest(refused, undefined);
      });
    },
  };
}

export type SwapRequestUseCases = {
  list: ReturnType<typeof createListSwapRequests>;
  approve: ReturnType<typeof createApproveSwapRequest>;
  refuse: ReturnType<typeof createRefuseSwapRequest>;
};
