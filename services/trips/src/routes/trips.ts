import { parse, type SessionGuard } from '@crewswap/kit';
import { CreateTripBody, DescriptionBody, IdParams, RequestedBody, SwappableBody, TripListQuery, UpdateTripBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { createListTripsWithCrew } from '../domain/crew/trip-crew';
import type { TripService } from '../domain/trips';

/** A pilot's own trips; another pilot's trip answers 404 on every route. */
export function tripRoutes(
  app: FastifyInstance,
  deps: { guard: SessionGuard; trips: TripService; listTripsWithCrew: ReturnType<typeof createListTripsWithCrew> },
): void {
  const { guard, trips, listTripsWithCrew } = deps;

  app.get('/api/trips', async (request) => {
    const { pilotId } = guard.pilot(request);
    const { includeCrew } = parse(TripListQuery, request.query);
    return includeCrew === 'true' ? listTripsWithCrew.execute({ pilotId }) : trips.list(pilotId);
  });

  app.post('/api/trips', async (request, reply) => {
    const { pilotId } = guard.pilot(request);
    const body = parse(CreateTripBody, request.body ?? {});
    return reply.status(201).send(await trips.create(pilotId, body));
  });

  app.patch('/api/trips/:id', async (request) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.update(pilotId, id, parse(UpdateTripBody, request.body ?? {}));
  });

  app.delete('/api/trips/:id', async (request, reply) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    await trips.remove(pilotId, id);
    return reply.status(204).send();
  });

  app.patch('/api/trips/:id/swappable', async (request) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.setSwappable(pilotId, id, parse(SwappableBody, request.body ?? {}));
  });

  app.patch('/api/trips/:id/description', async (request) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.setDescription(pilotId, id, parse(DescriptionBody, request.body ?? {}));
  });

  app.patch('/api/trips/:id/requested', async (request) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.setRequested(pilotId, id, parse(RequestedBody, request.body ?? {}));
  });
}
