import { routes, type Bus, type Clock, type Logger, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { Bell } from '../data/bell';
import { tellBellUpdated } from '../events/bell-updated';

/** The bell: the pilot's own alerts only, read on one device is read on all. */
export function bellRoutes(app: FastifyInstance, deps: { guard: SessionGuard; bell: Bell; clock: Clock; bus: Bus; log: Logger }): void {
  const route = routes(app);
  const pilot = deps.guard.pilot;
  route(API.bell, { auth: pilot }, async ({ session }) => deps.bell.list(session.pilotId));
  route(API.markBellRead, { auth: pilot }, async ({ session, body }) => {
    const at = deps.clock.now();
    if ((await deps.bell.markRead(session.pilotId, body.ids, at)) > 0) tellBellUpdated(deps, session.pilotId, at);
    return { unread: await deps.bell.unread(session.pilotId) };
  });
}

