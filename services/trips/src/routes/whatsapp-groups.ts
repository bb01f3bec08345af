import { parse, routes, type SessionGuard } from '@crewswap/kit';
import { CreateWhatsappGroupBody, IdParams, UpdateWhatsappGroupBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { WhatsappGroupUseCases } from '../domain/whatsapp/use-cases';

/** The WhatsApp group of a trip's crew, reached through the caller's own trip. */
export function whatsappGroupRoutes(app: FastifyInstance, deps: { guard: SessionGuard; groups: WhatsappGroupUseCases }): void {
  const { guard, groups } = deps;
  const route = routes(app);
  const own = { auth: guard.pilot, params: IdParams };

  route.get('/api/trips/:id/whatsapp-group', own, async ({ session, params }) => groups.get.execute({ pilotId: session.pilotId, tripId: params.id }));

  // Created (201) or the group a crew member made first (200). The body is checked here rather
  // than with the `body` option, which reads a JSON null as no body: every field is optional.
  route.post('/api/trips/:id/whatsapp-group', { ...own, handlerReadsBody: true }, async ({ session, params, request, reply }) => {
    // The spec's fields are accepted, but the server decides them (the creator is the caller).
    parse(CreateWhatsappGroupBody, request.body === undefined ? {} : request.body);
    const { created, response } = await groups.create.execute({ pilotId: session.pilotId, tripId: params.id });
    reply.status(created ? 201 : 200);
    return response;
  });

  route.patch('/api/trips/:id/whatsapp-group', { ...own, body: UpdateWhatsappGroupBody }, async ({ session, params, body }) =>
    groups.setLink.execute({ pilotId: session.pilotId, tripId: params.id, body }),
  );

  route.delete('/api/trips/:id/whatsapp-group', { ...own, status: 204 }, async ({ session, params }) =>
    groups.remove.execute({ pilotId: session.pilotId, tripId: params.id }),
  );

  route.post('/api/trips/:id/whatsapp-group/claim', own, async ({ session, params }) => groups.claim.execute({ pilotId: session.pilotId, tripId: params.id }));
}
