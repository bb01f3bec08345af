import { routes, type SessionGuard } from '@crewswap/kit';
import { IdParams, WishBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { Wishes } from '../domain/wishes';

/** A pilot's wishes, under /api/notifications (the gateway sends these paths here). Only the pilot's own, always. */
export function registerWishRoutes(app: FastifyInstance, deps: { guard: SessionGuard; wishes: Wishes }): void {
  const { guard, wishes } = deps;
  const route = routes(app);
  route.get('/api/notifications/wishes', { auth: guard.pilot }, async ({ session }) => wishes.list(session.pilotId));
  route.post('/api/notifications/wishes', { auth: guard.pilot, body: WishBody, status: 201 }, async ({ session, body }) => wishes.create(session.pilotId, body));
  route.put('/api/notifications/wishes/:id', { auth: guard.pilot, params: IdParams, body: WishBody }, async ({ session, params, body }) =>
    wishes.update(session.pilotId, params.id, body),
  );
  route.delete('/api/notifications/wishes/:id', { auth: guard.pilot, params: IdParams, status: 204 }, async ({ session, params }) =>
    wishes.remove(session.pilotId, params.id),
  );
}
