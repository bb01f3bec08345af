import { adminWith, HttpError, routes, type SessionGuard } from '@crewswap/kit';
import { API, PROPOSAL_MESSAGES } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { ProposalRepository } from '../data/proposals';
import type { AcceptProposal, CounterProposal, DeclineProposal } from '../domain/proposals/answer-proposal';
import type { CancelAgreement, CancelProposal } from '../domain/proposals/close-swap';
import type { ProposeSwap } from '../domain/proposals/propose-swap';

/** The admin dashboard's period. */
export const STATS_DAYS = 30;

export interface ProposalUseCases {
  proposeSwap: ProposeSwap;
  acceptProposal: AcceptProposal;
  declineProposal: DeclineProposal;
  counterProposal: CounterProposal;
  cancelProposal: CancelProposal;
  cancelAgreement: CancelAgreement;
}

/** Swap proposals and agreements: every one of them answers only the pilots it concerns. */
export function registerProposalRoutes(app: FastifyInstance, deps: { guard: SessionGuard; proposals: ProposalRepository; useCases: ProposalUseCases; now: () => Date }): void {
  const { guard, proposals, useCases } = deps;
  const route = routes(app);
  const pilot = guard.pilot;
  route(API.proposeSwap, { auth: pilot, status: 201 }, async ({ session, body }) => useCases.proposeSwap.execute({ pilotId: session.pilotId, body }));
  route(API.listProposals, { auth: pilot }, async ({ session, query }) => proposals.listFor(session.pilotId, query));
  route(API.acceptProposal, { auth: pilot }, async ({ session, params }) =>
    useCases.acceptProposal.execute({ pilotId: session.pilotId, id: params.id }),
  );
  route(API.declineProposal, { auth: pilot }, async ({ session, params, body }) =>
    useCases.declineProposal.execute({ pilotId: session.pilotId, id: params.id, body }),
  );
  route(API.counterProposal, { auth: pilot, status: 201 }, async ({ session, params, body }) =>
    useCases.counterProposal.execute({ pilotId: session.pilotId, id: params.id, body }),
  );
  route(API.cancelProposal, { auth: pilot }, async ({ session, params }) =>
    useCases.cancelProposal.execute({ pilotId: session.pilotId, id: params.id }),
  );
  route(API.listAgreements, { auth: pilot }, async ({ session }) => proposals.agreementsOf(session.pilotId));
  route(API.cancelAgreement, { auth: pilot }, async ({ session, params }) =>
    useCases.cancelAgreement.execute({ pilotId: session.pilotId, id: params.id }),
  );
  // Gone (issue 53): crewing decides at the crewing desk. Whatever the body, the answer says so.
  route(API.recordCrewing, { auth: pilot, handlerReadsBody: true }, async () => {
    throw new HttpError(410, PROPOSAL_MESSAGES.crewingDecides);
  });
  route(API.proposalStats, { auth: adminWith(guard, 'view_analytics') }, async () => ({
    days: STATS_DAYS,
    rows: await proposals.stats(new Date(deps.now().getTime() - STATS_DAYS * 24 * 60 * 60 * 1000)),
  }));
}
