import { routes, type SessionGuard } from '@crewswap/kit';
import {
  AirportCheckQuery,
  CrewLinkBody,
  CrewLinkListQuery,
  CrewLinkSuggestionsQuery,
  IdParams,
  SimilarCrewLinksQuery,
} from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { CrewLinkService } from '../domain/crew-links';

/** Crew links are for signed-in pilots only. */
export function crewLinkRoutes(app: FastifyInstance, deps: { guard: SessionGuard; links: CrewLinkService }): void {
  const { guard, links } = deps;
  const route = routes(app);
  const pilot = guard.pilot;

  route.get('/api/crew-links', { auth: pilot, query: CrewLinkListQuery }, async ({ session, query }) =>
    links.list(session.pilotId, { search: query.search, category: query.category, destinations: query.destination }),
  );

  route.post('/api/crew-links', { auth: pilot, body: CrewLinkBody, status: 201 }, async ({ session, body }) => links.create(session.pilotId, body));

  // The helper calls the screens need (the spec leaves their paths open).
  route.get('/api/crew-links/similar', { auth: pilot, query: SimilarCrewLinksQuery }, async ({ query }) => links.similar(query.title));

  route.get('/api/crew-links/suggestions', { auth: pilot, query: CrewLinkSuggestionsQuery }, async ({ query }) => links.suggestions(query.q));

  route.get('/api/crew-links/destinations', { auth: pilot }, async () => links.destinations());

  route.get('/api/crew-links/airport-check', { auth: pilot, query: AirportCheckQuery }, async ({ query }) => links.checkAirport(query.code));

  route.get('/api/crew-links/:id', { auth: pilot, params: IdParams }, async ({ session, params }) => links.get(params.id, session.pilotId));

  route.put('/api/crew-links/:id', { auth: pilot, params: IdParams, body: CrewLinkBody }, async ({ session, params, body }) =>
    links.update(session.pilotId, params.id, body),
  );

  route.delete('/api/crew-links/:id', { auth: pilot, params: IdParams, status: 204 }, async ({ params }) => links.remove(params.id));

  route.post('/api/crew-links/:id/like', { auth: pilot, params: IdParams }, async ({ session, params }) => links.like(session.pilotId, params.id));

  route.delete('/api/crew-links/:id/like', { auth: pilot, params: IdParams }, async ({ session, params }) => links.unlike(session.pilotId, params.id));
}
