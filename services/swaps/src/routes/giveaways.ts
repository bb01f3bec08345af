import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { ListGiveaways } from '../domain/list-giveaways';

/** Pick up a trip (issue 53); a pick-up itself is a proposal (routes/proposals.ts). */
export function registerGiveawayRoutes(app: FastifyInstance, deps: { guard: SessionGuard; listGiveaways: ListGiveaways }): void {
  routes(app)(API.listGiveaways, { auth: deps.guard.pilot }, async ({ session, query }) => deps.listGiveaways.execute({ pilotId: session.pilotId, query }));
}
