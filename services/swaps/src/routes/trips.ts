import type { SessionGuard } from '@crewswap/kit';
import { parse } from '@crewswap/kit';
import { IdParams, MatchesQuery, type SendNotificationsResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { FindMatches } from '../domain/find-matches';
import type { PushAlert } from '../domain/push-alert';

/** Push Alert sends no body; an empty one (or `{}`) is fine, anything else is a mistake. */
const NoBody = z.strictObject({}).optional();

/** The app sends `?startDate=&endDate=` when no range is chosen: an empty value means not given. */
function withoutEmptyValues(query: unknown): unknown {
  if (!query || typeof query !== 'object') return query;
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

export function registerTripRoutes(app: FastifyInstance, deps: { guard: SessionGuard; findMatches: FindMatches; pushAlert: PushAlert }): void {
  const { guard, findMatches, pushAlert } = deps;

  // Answers SwapMatch[]; the JSON comes ready-made from the read model.
  app.get('/api/trips/:id/matches', async (request, reply) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    const query = parse(MatchesQuery, withoutEmptyValues(request.query));
    return reply.type('application/json; charset=utf-8').send(await findMatches.execute({ pilotId, tripId: id, query }));
  });

  // The kit takes an empty body sent as JSON as no body, so a bare POST passes NoBody.
  app.post('/api/trips/:id/send-notifications', async (request): Promise<SendNotificationsResponse> => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    parse(NoBody, request.body);
    return pushAlert.execute({ pilotId, tripId: id });
  });

  // The spec keeps the available-swaps list disabled; a clear 404 says so rather than an empty
  // list that would read as "no offers anywhere".
  app.get('/api/available-swaps', async (_request, reply) =>
    reply.status(404).send({ error: 'The available swaps list is disabled. Use Find swaps on one of your trips.' }),
  );
}
