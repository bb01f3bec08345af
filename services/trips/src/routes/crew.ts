import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { CrewUseCases } from '../domain/crew/use-cases';
import { sendShared } from './shared-body';

/** Other pilots' trips as a pilot may see them: crews, calendars, trip search, and the counts. */
export function crewRoutes(app: FastifyInstance, deps: { guard: SessionGuard; useCases: CrewUseCases }): void {
  const { guard, useCases } = deps;
  const route = routes(app);
  const pilot = guard.pilot;

  route(API.tripPilots, { auth: pilot }, async ({ session, params }) =>
    useCases.tripCrew.execute({ pilotId: session.pilotId, tripId: params.id }),
  );

  // Before '/:rank/:fleet': a static segment wins, so 'pilots' is never read as a rank.
  route(API.masterCalendarPilot, { auth: pilot }, async ({ session, params }) =>
    useCases.pilotContact.execute({ pilotId: session.pilotId, contactId: params.id }),
  );

  // MasterCalendarResponse, already serialized and compressed: the same for every caller.
  route(API.masterCalendar, { auth: pilot }, async ({ session, params, request, reply }) =>
    sendShared(request, reply, await useCases.masterCalendar.execute({ pilotId: session.pilotId, rank: params.rank, fleet: params.fleet })),
  );

  route(API.crossoverTrips, { auth: pilot }, async ({ session, reply }) => {
    // Already the JSON of CrossoverTripsResponse (its groups are kept serialized).
    reply.type('application/json; charset=utf-8');
    return useCases.crossoverTrips.execute({ pilotId: session.pilotId });
  });

  route(API.usualRequests, { auth: pilot }, async ({ session, query }) =>
    useCases.searchUsualRequests.execute({ pilotId: session.pilotId, query }),
  );

  route(API.pilotStats, { auth: pilot }, async ({ session }) => useCases.pilotStats.execute({ pilotId: session.pilotId }));
}
