import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { Wishes } from '../domain/wishes';

/** A pilot's wishes, under /api/notifications (the gateway sends these paths here). Only the pilot's own, always. */
export function registerWishRoutes(app: FastifyInstance, deps: { guard: SessionGuard; wishes: Wishes }): void {
  const { guard, wishes } = deps;
  const route = routes(app);
  route(API.listWishes, { auth: guard.pilot }, async ({ session }) => wishes.list(session.pilotId));
  route(API.createWish, { auth: guard.pilot, status: 201 }, async ({ session, body }) => wishes.create(session.pilotId, body));
  route(API.updateWish, { auth: guard.pilot }, async ({ session, params, body }) =>
    wishes.update(session.pilotId, params.id, body),
  );
  route(API.deleteWish, { auth: guard.pilot, status: 204 }, async ({ session, params }) =>
    wishes.remove(session.pilotId, params.id),
  );
}
