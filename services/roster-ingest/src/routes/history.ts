import { routes, type Clock, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { HistoryRepository } from '../data/history';

/** Roster Processing History: any signed-in admin (the spec gives Rosters no permission of its own). */
export function historyRoutes(app: FastifyInstance, deps: { guard: SessionGuard; history: HistoryRepository; clock: Clock }): void {
  const { guard, history, clock } = deps;
  const route = routes(app);

  route(API.rosterHistory, { auth: guard.admin }, async ({ query }) => history.list(query, clock.today()));

  route(API.rosterStats, { auth: guard.admin }, async () => history.stats());
}
