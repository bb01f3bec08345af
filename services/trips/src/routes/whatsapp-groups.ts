import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { WhatsappGroupUseCases } from '../domain/whatsapp/use-cases';

/** The WhatsApp group of a trip's crew, reached through the caller's own trip. */
export function whatsappGroupRoutes(app: FastifyInstance, deps: { guard: SessionGuard; groups: WhatsappGroupUseCases }): void {
  const { guard, groups } = deps;
  const route = routes(app);
  const own = { auth: guard.pilot };

  route(API.whatsappGroup, own, async ({ session, params }) => groups.get.execute({ pilotId: session.pilotId, tripId: params.id }));

  // Created (201) or the group a crew member made first (200), so the handler sets the status.
  // The spec's fields are accepted, but the server decides them (the creator is the caller).
  route(API.createWhatsappGroup, own, async ({ session, params, reply }) => {
    const { created, response } = await groups.create.execute({ pilotId: session.pilotId, tripId: params.id });
    reply.status(created ? 201 : 200);
    return response;
  });

  route(API.setWhatsappGroupLink, own, async ({ session, params, body }) =>
    groups.setLink.execute({ pilotId: session.pilotId, tripId: params.id, body }),
  );

  route(API.removeWhatsappGroup, { ...own, status: 204 }, async ({ session, params }) =>
    groups.remove.execute({ pilotId: session.pilotId, tripId: params.id }),
  );

  route(API.claimWhatsappGroup, own, async ({ session, params }) => groups.claim.execute({ pilotId: session.pilotId, tripId: params.id }));
}
