import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { GetPilotMonth } from '../domain/pilot-month';

/** The pilot's month, and what a swap would do to it (issue 55). */
export function pilotMonthRoutes(app: FastifyInstance, deps: { guard: SessionGuard; pilotMonth: GetPilotMonth }): void {
  routes(app)(API.pilotMonth, { auth: deps.guard.pilot }, async ({ session, query }) => deps.pilotMonth.execute({ pilotId: session.pilotId, query }));
}
