import { routes, type SessionGuard } from '@crewswap/kit';
import { IdParams, MatchesQuery } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { FindMatches } from '../domain/find-matches';
import type { PushAlert } from '../domain/push-alert';
import type { OfferViews } from '../events/offer-views';

/** Push Alert sends no body; an empty one (or `{}`) is fine, anything else is a mistake. */
const NoBody = z.strictObject({}).optional();

/** The app sends `?startDate=&endDate=` when no range is chosen: an empty value means not given. */
const MatchesQueryFromApp = z.preprocess((query: unknown) => {
  if (!query || typeof query !== 'object') return query;
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}, MatchesQuery);

export function registerTripRoutes(app: FastifyInstance, deps: { guard: SessionGuard; findMatches: FindMatches; pushAlert: PushAlert; offerViews: Pick<OfferViews, 'seen'> }): void {
  const { guard, findMatches, pushAlert, offerViews } = deps;
  const route = routes(app);

  // Answers SwapMatch[]; the JSON comes ready-made from the read model. Who saw which offer is
  // written after the answer has gone (so a roster that takes an offer away can tell them).
  route.get('/api/trips/:id/matches', { auth: guard.pilot, params: IdParams, query: MatchesQueryFromApp }, async ({ session, params, query, reply }) => {
    const { json, shown } = await findMatches.execute({ pilotId: session.pilotId, tripId: params.id, query });
    setImmediate(() => void offerViews.seen(session.pilotId, shown));
    return reply.type('application/json; charset=utf-8').send(json);
  });

  // The kit takes an empty body sent as JSON as no body, so a bare POST passes NoBody.
  route.post('/api/trips/:id/send-notifications', { auth: guard.pilot, params: IdParams, body: NoBody }, async ({ session, params }) =>
    pushAlert.execute({ pilotId: session.pilotId, tripId: params.id }),
  );

  // The spec keeps the available-swaps list disabled; a clear 404 says so rather than an empty
  // list that would read as "no offers anywhere".
  route.get('/api/available-swaps', { auth: 'none' }, async ({ reply }) =>
    reply.status(404).send({ error: 'The available swaps list is disabled. Use Find swaps on one of your trips.' }),
  );
}
