import { parse, type SessionGuard } from '@crewswap/kit';
import { CreateWhatsappGroupBody, IdParams, UpdateWhatsappGroupBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type {
  createClaimWhatsappGroup,
  createCreateWhatsappGroup,
  createDeleteWhatsappGroup,
  createGetWhatsappGroup,
  createSetWhatsappGroupLink,
} from '../domain/whatsapp/use-cases';

export interface WhatsappGroupUseCases {
  get: ReturnType<typeof createGetWhatsappGroup>;
  create: ReturnType<typeof createCreateWhatsappGroup>;
  setLink: ReturnType<typeof createSetWhatsappGroupLink>;
  remove: ReturnType<typeof createDeleteWhatsappGroup>;
  claim: ReturnType<typeof createClaimWhatsappGroup>;
}

/** The WhatsApp group of a trip's crew, reached through the caller's own trip. */
export function whatsappGroupRoutes(app: FastifyInstance, deps: { guard: SessionGuard; groups: WhatsappGroupUseCases }): void {
  const { guard, groups } = deps;
  const caller = (request: Parameters<SessionGuard['pilot']>[0]) => ({
    pilotId: guard.pilot(request).pilotId,
    tripId: parse(IdParams, request.params).id,
  });

  app.get('/api/trips/:id/whatsapp-group', async (request) => groups.get.execute(caller(request)));

  app.post('/api/trips/:id/whatsapp-group', async (request, reply) => {
    const input = caller(request);
    // The spec's body fields are accepted but the server decides them (creator = caller). No body
    // is an empty one; a JSON null is not a body.
    parse(CreateWhatsappGroupBody, request.body === undefined ? {} : request.body);
    const { created, response } = await groups.create.execute(input);
    return reply.status(created ? 201 : 200).send(response);
  });

  app.patch('/api/trips/:id/whatsapp-group', async (request) => {
    const input = caller(request);
    return groups.setLink.execute({ ...input, body: parse(UpdateWhatsappGroupBody, request.body ?? {}) });
  });

  app.delete('/api/trips/:id/whatsapp-group', async (request, reply) => {
    await groups.remove.execute(caller(request));
    return reply.status(204).send();
  });

  app.post('/api/trips/:id/whatsapp-group/claim', async (request) => groups.claim.execute(caller(request)));
}
