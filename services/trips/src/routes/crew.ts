import { parse, type SessionGuard } from '@crewswap/kit';
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

  app.get('/api/trips/:id/pilots', async (request) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return useCases.tripCrew.execute({ pilotId, tripId: id });
  });

  app.get('/api/master-calendar/:rank/:fleet', async (request, reply) => {
    const { pilotId } = guard.pilot(request);
    const { rank, fleet } = parse(MasterCalendarParams, request.params);
    // Already the JSON of MasterCalendarEntry[] (see the use case: other rows are kept as text).
    return reply.type('application/json; charset=utf-8').send(await useCases.masterCalendar.execute({ pilotId, rank, fleet }));
  });

  app.get('/api/crossover-trips', async (request) => {
    const { pilotId } = guard.pilot(request);
    return useCases.crossoverTrips.execute({ pilotId });
  });

  app.get('/api/usual-requests/search', async (request) => {
    const { pilotId } = guard.pilot(request);
    const query = parse(UsualRequestsQuery, request.query);
    return useCases.searchUsualRequests.execute({ pilotId, query });
  });

  app.get('/api/stats', async (request) => {
    const { pilotId } = guard.pilot(request);
    return useCases.pilotStats.execute({ pilotId });
  });
}
