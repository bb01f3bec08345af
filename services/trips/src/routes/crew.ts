import { routes, type SessionGuard } from '@crewswap/kit';
import { IdParams, MasterCalendarParams, UsualRequestsQuery } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { createGetCrossoverTrips } from '../domain/crew/crossover-trips';
import type { createGetMasterCalendar } from '../domain/crew/master-calendar';
import type { createGetPilotStats } from '../domain/crew/pilot-stats';
import type { createSearchUsualRequests } from '../domain/crew/search-usual-requests';
import type { createGetTripCrew } from '../domain/crew/trip-crew';

export interface CrewUseCases {
  tripCrew: ReturnType<typeof createGetTripCrew>;
  masterCalendar: ReturnType<typeof createGetMasterCalendar>;
  crossoverTrips: ReturnType<typeof createGetCrossoverTrips>;
  searchUsualRequests: ReturnType<typeof createSearchUsualRequests>;
  pilotStats: ReturnType<typeof createGetPilotStats>;
}

/** Other pilots' trips as a pilot may see them: crews, calendars, trip search, and the counts. */
export function crewRoutes(app: FastifyInstance, deps: { guard: SessionGuard; useCases: CrewUseCases }): void {
  const { guard, useCases } = deps;
  const route = routes(app);
  const pilot = guard.pilot;

  route.get('/api/trips/:id/pilots', { auth: pilot, params: IdParams }, async ({ session, params }) =>
    useCases.tripCrew.execute({ pilotId: session.pilotId, tripId: params.id }),
  );

  route.get('/api/master-calendar/:rank/:fleet', { auth: pilot, params: MasterCalendarParams }, async ({ session, params, reply }) => {
    // Already the JSON of MasterCalendarEntry[] (the use case keeps other rows as text).
    reply.type('application/json; charset=utf-8');
    return useCases.masterCalendar.execute({ pilotId: session.pilotId, rank: params.rank, fleet: params.fleet });
  });

  route.get('/api/crossover-trips', { auth: pilot }, async ({ session }) => useCases.crossoverTrips.execute({ pilotId: session.pilotId }));

  route.get('/api/usual-requests/search', { auth: pilot, query: UsualRequestsQuery }, async ({ session, query }) =>
    useCases.searchUsualRequests.execute({ pilotId: session.pilotId, query }),
  );

  route.get('/api/stats', { auth: pilot }, async ({ session }) => useCases.pilotStats.execute({ pilotId: session.pilotId }));
}
