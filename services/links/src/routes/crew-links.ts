import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
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

  route(API.listCrewLinks, { auth: pilot }, async ({ session, query }) =>
    links.list(session.pilotId, { search: query.search, category: query.category, destinations: query.destination }),
  );

  route(API.createCrewLink, { auth: pilot, status: 201 }, async ({ session, body }) =>
    useCases.createLink.execute({ pilotId: session.pilotId, body }),
  );

  // The helper calls the screens need (the spec leaves their paths open).
  route(API.similarCrewLinks, { auth: pilot }, async ({ query }) => lookups.similar(query.title));

  route(API.crewLinkSuggestions, { auth: pilot }, async ({ query }) => lookups.suggestions(query.q));

  route(API.crewLinkDestinations, { auth: pilot }, async () => links.destinationCodes());

  route(API.crewLinkAirportCheck, { auth: pilot }, async ({ query }) => lookups.checkAirport(query.code));

  route(API.crewLink, { auth: pilot }, async ({ session, params }) => findLink(links, params.id, session.pilotId));

  route(API.updateCrewLink, { auth: pilot }, async ({ session, params, body }) =>
    useCases.updateLink.execute({ pilotId: session.pilotId, id: params.id, body }),
  );

  route(API.deleteCrewLink, { auth: pilot, status: 204 }, async ({ params }) => useCases.removeLink.execute({ id: params.id }));

  route(API.likeCrewLink, { auth: pilot }, async ({ session, params }) =>
    useCases.likeLink.execute({ pilotId: session.pilotId, id: params.id, liked: true }),
  );

  route(API.unlikeCrewLink, { auth: pilot }, async ({ session, params }) =>
    useCases.likeLink.execute({ pilotId: session.pilotId, id: params.id, liked: false }),
  );
}
