import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { FindMatches } from '../domain/find-matches';
import type { PushAlert } from '../domain/push-alert';
import type { OfferViews } from '../events/offer-views';

export function registerTripRoutes(app: FastifyInstance, deps: { guard: SessionGuard; findMatches: FindMatches; pushAlert: PushAlert; offerViews: Pick<OfferViews, 'seen'> }): void {
  const { guard, findMatches, pushAlert, offerViews } = deps;
  const route = routes(app);

  // Answers SwapMatch[]; the JSON comes ready-made from the read model. Who saw which offer is
  // written after the answer has gone (so a roster that takes an offer away can tell them).
  route(API.tripMatches, { auth: guard.pilot }, async ({ session, params, query, reply }) => {
    const { json, shown } = await findMatches.execute({ pilotId: session.pilotId, tripId: params.id, query });
    setImmediate(() => void offerViews.seen(session.pilotId, shown));
    return reply.type('application/json; charset=utf-8').send(json);
  });

  // Push Alert takes no body: none or `{}` (the kit refuses anything else on a route that declares none).
  route(API.sendMatchNotifications, { auth: guard.pilot }, async ({ session, params }) =>
    pushAlert.execute({ pilotId: session.pilotId, tripId: params.id }),
  );

  // The spec keeps the available-swaps list disabled; a clear 404 says so rather than an empty
  // list that would read as "no offers anywhere".
  route(API.availableSwaps, { auth: 'none' }, async ({ reply }) =>
    reply.status(404).send({ error: 'The available swaps list is disabled. Use Find swaps on one of your trips.' }),
  );
}
