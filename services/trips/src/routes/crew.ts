import { routes, type SessionGuard } from '@crewswap/kit';
import { IdParams, MasterCalendarParams, UsualRequestsQuery } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { CrewUseCases } from '../domain/crew/use-cases';
import { sendShared } from './shared-body';

/** Other pilots' trips as a pilot may see them: crews, calendars, trip search, and the counts. */
export function crewRoutes(app: FastifyInstance, deps: { guard: SessionGuard; useCases: CrewUseCases }): void {
  const { guard, useCases } = deps;
  const route = routes(app);
  const pilot = guard.pilot;

  route.get('/api/trips/:id/pilots', { auth: pilot, params: IdParams }, async ({ session, params }) =>
    useCases.tripCrew.execute({ pilotId: session.pilotId, tripId: params.id }),
  );

  // Before '/:rank/:fleet': a static segment wins, so 'pilots' is never read as a rank.
  route.get('/api/master-calendar/pilots/:id', { auth: pilot, params: IdParams }, async ({ session, params }) =>
    useCases.pilotContact.execute({ pilotId: session.pilotId, contactId: params.id }),
  );

  // MasterCalendarResponse, already serialized and compressed: the same for every caller.
  route.get('/api/master-calendar/:rank/:fleet', { auth: pilot, params: MasterCalendarParams }, async ({ session, params, request, reply }) =>
    sendShared(request, reply, await useCases.masterCalendar.execute({ pilotId: session.pilotId, rank: params.rank, fleet: params.fleet })),
  );

  route.get('/api/crossover-trips', { auth: pilot }, async ({ session, reply }) => {
    // Already the JSON of CrossoverTripsResponse (its groups are kept serialized).
    reply.type('application/json; charset=utf-8');
    return useCases.crossoverTrips.execute({ pilotId: session.pilotId });
  });

  route.get('/api/usual-requests/search', { auth: pilot, query: UsualRequestsQuery }, async ({ session, query }) =>
    useCases.searchUsualRequests.execute({ pilotId: session.pilotId, query }),
  );

  route.get('/api/stats', { auth: pilot }, async ({ session }) => useCases.pilotStats.execute({ pilotId: session.pilotId }));
}
