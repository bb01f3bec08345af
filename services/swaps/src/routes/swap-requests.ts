import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { SwapRequestUseCases } from '../domain/crewing/swap-requests';

/** The crewing desk: only an administrator holding manage_swaps (a pilot's session is not an admin's). */
export function registerSwapRequestRoutes(app: FastifyInstance, deps: { guard: SessionGuard; useCases: SwapRequestUseCases }): void {
  const { guard, useCases } = deps;
  const route = routes(app);
  const desk = adminWith(guard, 'manage_swaps');
  route(API.listSwapRequests, { auth: desk }, async ({ query }) => ({ requests: await useCases.list.execute(query) }));
  route(API.approveSwapRequest, { auth: desk }, async ({ session, params }) => useCases.approve.execute({ adminId: session.adminId, id: params.id }));
  route(API.refuseSwapRequest, { auth: desk }, async ({ session, params, body }) =>
    useCases.refuse.execute({ adminId: session.adminId, id: params.id, reason: body.reason }),
  );
}
