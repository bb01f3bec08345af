import { parse, type SessionGuard } from '@crewswap/kit';
import { CreateTripBody, DescriptionBody, IdParams, RequestedBody, SwappableBody, TripListQuery, UpdateTripBody, type TripChangeOrigin } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { TripService } from '../domain/trips';

/** A pilot's own trips; another pilot's trip answers 404 on every route. */
export function tripRoutes(app: FastifyInstance, deps: { guard: SessionGuard; trips: TripService }): void {
  const { guard, trips } = deps;
  /** The session (device) that makes a change: the pilot's other devices hear of it, this one not. */
  const fromApp = (sessionId: string): TripChangeOrigin => ({ channel: 'app', sessionId });

  app.get('/api/trips', async (request) => {
    const { pilotId } = guard.pilot(request);
    parse(TripListQuery, request.query);
    return trips.list(pilotId);
  });

  app.post('/api/trips', async (request, reply) => {
    const { pilotId, sessionId } = guard.pilot(request);
    const body = parse(CreateTripBody, request.body ?? {});
    return reply.status(201).send(await trips.create(pilotId, body, fromApp(sessionId)));
  });

  app.patch('/api/trips/:id', async (request) => {
    const { pilotId, sessionId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.update(pilotId, id, parse(UpdateTripBody, request.body ?? {}), fromApp(sessionId));
  });

  app.delete('/api/trips/:id', async (request, reply) => {
    const { pilotId, sessionId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    await trips.remove(pilotId, id, fromApp(sessionId));
    return reply.status(204).send();
  });

  app.patch('/api/trips/:id/swappable', async (request) => {
    const { pilotId, sessionId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.setSwappable(pilotId, id, parse(SwappableBody, request.body ?? {}), fromApp(sessionId));
  });

  app.patch('/api/trips/:id/description', async (request) => {
    const { pilotId, sessionId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.setDescription(pilotId, id, parse(DescriptionBody, request.body ?? {}), fromApp(sessionId));
  });

  app.patch('/api/trips/:id/requested', async (request) => {
    const { pilotId, sessionId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return trips.setRequested(pilotId, id, parse(RequestedBody, request.body ?? {}), fromApp(sessionId));
  });
}
