import { parse, type Clock, type SessionGuard } from '@crewswap/kit';
import { RosterHistoryQuery } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { HistoryRepository } from '../data/history';

/** Roster Processing History: any signed-in admin (the spec gives Rosters no permission of its own). */
export function historyRoutes(app: FastifyInstance, deps: { guard: SessionGuard; history: HistoryRepository; clock: Clock }): void {
  const { guard, history, clock } = deps;

  app.get('/api/admin/roster-history', async (request) => {
    guard.admin(request);
    const query = parse(RosterHistoryQuery, request.query);
    return history.list(query, clock.today());
  });

  app.get('/api/admin/roster-history/stats', async (request) => {
    guard.admin(request);
    return history.stats();
  });
}
