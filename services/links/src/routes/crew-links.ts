import { parse, type SessionGuard } from '@crewswap/kit';
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

/** Crew links are for signed-in pilots only: every route starts with the session check. */
export function crewLinkRoutes(app: FastifyInstance, deps: { guard: SessionGuard; links: CrewLinkService }): void {
  const { guard, links } = deps;

  app.get('/api/crew-links', async (request) => {
    const { pilotId } = guard.pilot(request);
    const query = parse(CrewLinkListQuery, request.query);
    return links.list(pilotId, { search: query.search, category: query.category, destinations: query.destination });
  });

  app.post('/api/crew-links', async (request, reply) => {
    const { pilotId } = guard.pilot(request);
    return reply.status(201).send(await links.create(pilotId, parse(CrewLinkBody, request.body ?? {})));
  });

  // The helper calls the screens need (the spec leaves their paths open).
  app.get('/api/crew-links/similar', async (request) => {
    guard.pilot(request);
    return links.similar(parse(SimilarCrewLinksQuery, request.query).title);
  });

  app.get('/api/crew-links/suggestions', async (request) => {
    guard.pilot(request);
    return links.suggestions(parse(CrewLinkSuggestionsQuery, request.query).q);
  });

  app.get('/api/crew-links/destinations', async (request) => {
    guard.pilot(request);
    return links.destinations();
  });

  app.get('/api/crew-links/airport-check', async (request) => {
    guard.pilot(request);
    return links.checkAirport(parse(AirportCheckQuery, request.query).code);
  });

  app.get('/api/crew-links/:id', async (request) => {
    const { pilotId } = guard.pilot(request);
    return links.get(parse(IdParams, request.params).id, pilotId);
  });

  app.put('/api/crew-links/:id', async (request) => {
    const { pilotId } = guard.pilot(request);
    const { id } = parse(IdParams, request.params);
    return links.update(pilotId, id, parse(CrewLinkBody, request.body ?? {}));
  });

  app.delete('/api/crew-links/:id', async (request, reply) => {
    guard.pilot(request);
    await links.remove(parse(IdParams, request.params).id);
    return reply.status(204).send();
  });

  app.post('/api/crew-links/:id/like', async (request) => {
    const { pilotId } = guard.pilot(request);
    return links.like(pilotId, parse(IdParams, request.params).id);
  });

  app.delete('/api/crew-links/:id/like', async (request) => {
    const { pilotId } = guard.pilot(request);
    return links.unlike(pilotId, parse(IdParams, request.params).id);
  });
}
