import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { RosterSubscriptions } from '../domain/roster-subscription';

/**
 * The pilot's roster address (issue 56): saved after a first fetch that imports like an upload,
 * then fetched on its own; removed at once; fetched now at the pilot's asking, once a minute.
 */
export function subscriptionRoutes(app: FastifyInstance, deps: { guard: SessionGuard; subscriptions: RosterSubscriptions }): void {
  const { guard, subscriptions } = deps;
  const route = routes(app);

  route(API.rosterSubscription, { auth: guard.pilot }, ({ session }) => subscriptions.get(session.pilotId));
  route(API.saveRosterSubscription, { auth: guard.pilot }, ({ session, body }) => subscriptions.subscribe(session.pilotId, body.url));
  route(API.deleteRosterSubscription, { auth: guard.pilot, status: 204 }, ({ session }) => subscriptions.remove(session.pilotId));
  route(API.refreshRosterSubscription, { auth: guard.pilot }, ({ session }) => subscriptions.refresh(session.pilotId));
}
