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
import type { LinkRepository } from '../data/links';
import type { CreateLink } from '../domain/create-link';
import type { LikeLink } from '../domain/like-link';
import { findLink } from '../domain/link-fields';
import type { LinkLookups } from '../domain/link-lookups';
import type { RemoveLink } from '../domain/remove-link';
import type { UpdateLink } from '../domain/update-link';

export interface LinkUseCases {
  createLink: CreateLink;
  updateLink: UpdateLink;
  removeLink: RemoveLink;
  likeLink: LikeLink;
}

/** Crew links are for signed-in pilots only. */
export function crewLinkRoutes(app: FastifyInstance, deps: { guard: SessionGuard; links: LinkRepository; lookups: LinkLookups; useCases: LinkUseCases }): void {
  const { links, lookups, useCases } = deps;
  const route = routes(app);
  const pilot = deps.guard.pilot;

  route.get('/api/crew-links', { auth: pilot, query: CrewLinkListQuery }, async ({ session, query }) =>
    links.list(session.pilotId, { search: query.search, category: query.category, destinations: query.destination }),
  );

  route.post('/api/crew-links', { auth: pilot, body: CrewLinkBody, status: 201 }, async ({ session, body }) =>
    useCases.createLink.execute({ pilotId: session.pilotId, body }),
  );

  // The helper calls the screens need (the spec leaves their paths open).
  route.get('/api/crew-links/similar', { auth: pilot, query: SimilarCrewLinksQuery }, async ({ query }) => lookups.similar(query.title));

  route.get('/api/crew-links/suggestions', { auth: pilot, query: CrewLinkSuggestionsQuery }, async ({ query }) => lookups.suggestions(query.q));

  route.get('/api/crew-links/destinations', { auth: pilot }, async () => links.destinationCodes());

  route.get('/api/crew-links/airport-check', { auth: pilot, query: AirportCheckQuery }, async ({ query }) => lookups.checkAirport(query.code));

  route.get('/api/crew-links/:id', { auth: pilot, params: IdParams }, async ({ session, params }) => findLink(links, params.id, session.pilotId));

  route.put('/api/crew-links/:id', { auth: pilot, params: IdParams, body: CrewLinkBody }, async ({ session, params, body }) =>
    useCases.updateLink.execute({ pilotId: session.pilotId, id: params.id, body }),
  );

  route.delete('/api/crew-links/:id', { auth: pilot, params: IdParams, status: 204 }, async ({ params }) => useCases.removeLink.execute({ id: params.id }));

  route.post('/api/crew-links/:id/like', { auth: pilot, params: IdParams }, async ({ session, params }) =>
    useCases.likeLink.execute({ pilotId: session.pilotId, id: params.id, liked: true }),
  );

  route.delete('/api/crew-links/:id/like', { auth: pilot, params: IdParams }, async ({ session, params }) =>
    useCases.likeLink.execute({ pilotId: session.pilotId, id: params.id, liked: false }),
  );
}
