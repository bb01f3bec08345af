import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import { CounterProposalBody, CrewingBody, DeclineProposalBody, IdParams, ProposalListQuery, ProposeSwapBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ProposalRepository } from '../data/proposals';
import type { AcceptProposal, CounterProposal, DeclineProposal } from '../domain/proposals/answer-proposal';
import type { CancelAgreement, CancelProposal, RecordCrewing } from '../domain/proposals/close-swap';
import type { ProposeSwap } from '../domain/proposals/propose-swap';

const NoBody = z.strictObject({}).optional();
/** The admin dashboard's period. */
export const STATS_DAYS = 30;

export interface ProposalUseCases {
  proposeSwap: ProposeSwap;
  acceptProposal: AcceptProposal;
  declineProposal: DeclineProposal;
  counterProposal: CounterProposal;
  cancelProposal: CancelProposal;
  cancelAgreement: CancelAgreement;
  recordCrewing: RecordCrewing;
}

/** Swap proposals and agreements: every one of them answers only the pilots it concerns. */
export function registerProposalRoutes(app: FastifyInstance, deps: { guard: SessionGuard; proposals: ProposalRepository; useCases: ProposalUseCases; now: () => Date }): void {
  const { guard, proposals, useCases } = deps;
  const route = routes(app);
  const pilot = guard.pilot;
  route.post('/api/swaps/proposals', { auth: pilot, body: ProposeSwapBody, status: 201 }, async ({ session, body }) => useCases.proposeSwap.execute({ pilotId: session.pilotId, body }));
  route.get('/api/swaps/proposals', { auth: pilot, query: ProposalListQuery }, async ({ session, query }) => proposals.listFor(session.pilotId, query));
  route.post('/api/swaps/proposals/:id/accept', { auth: pilot, params: IdParams, body: NoBody }, async ({ session, params }) =>
    useCases.acceptProposal.execute({ pilotId: session.pilotId, id: params.id }),
  );
  route.post('/api/swaps/proposals/:id/decline', { auth: pilot, params: IdParams, body: DeclineProposalBody }, async ({ session, params, body }) =>
    useCases.declineProposal.execute({ pilotId: session.pilotId, id: params.id, body }),
  );
  route.post('/api/swaps/proposals/:id/counter', { auth: pilot, params: IdParams, body: CounterProposalBody, status: 201 }, async ({ session, params, body }) =>
    useCases.counterProposal.execute({ pilotId: session.pilotId, id: params.id, body }),
  );
  route.post('/api/swaps/proposals/:id/cancel', { auth: pilot, params: IdParams, body: NoBody }, async ({ session, params }) =>
    useCases.cancelProposal.execute({ pilotId: session.pilotId, id: params.id }),
  );
  route.get('/api/swaps/agreements', { auth: pilot }, async ({ session }) => proposals.agreementsOf(session.pilotId));
  route.post('/api/swaps/agreements/:id/cancel', { auth: pilot, params: IdParams, body: NoBody }, async ({ session, params }) =>
    useCases.cancelAgreement.execute({ pilotId: session.pilotId, id: params.id }),
  );
  route.post('/api/swaps/agreements/:id/crewing', { auth: pilot, params: IdParams, body: CrewingBody }, async ({ session, params, body }) =>
    useCases.recordCrewing.execute({ pilotId: session.pilotId, id: params.id, body }),
  );
  route.get('/api/admin/swaps/proposal-stats', { auth: adminWith(guard, 'view_analytics') }, async () => ({
    days: STATS_DAYS,
    rows: await proposals.stats(new Date(deps.now().getTime() - STATS_DAYS * 24 * 60 * 60 * 1000)),
  }));
}
