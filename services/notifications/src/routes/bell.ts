import { routes, type Bus, type Clock, type Logger, type SessionGuard } from '@crewswap/kit';
import { MarkBellReadBody, realtimePilotSubject, type SseBellUpdated } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { Bell } from '../data/bell';

/** The bell: the pilot's own alerts only, read on one device is read on all. */
export function bellRoutes(app: FastifyInstance, deps: { guard: SessionGuard; bell: Bell; clock: Clock; bus: Bus; log: Logger }): void {
  const route = routes(app);
  const pilot = deps.guard.pilot;
  route.get('/api/notifications/bell', { auth: pilot }, async ({ session }) => deps.bell.list(session.pilotId));
  route.post('/api/notifications/bell/read', { auth: pilot, body: MarkBellReadBody }, async ({ session, body }) => {
    const at = deps.clock.now();
    if ((await deps.bell.markRead(session.pilotId, body.ids, at)) > 0) bellChanged(deps, session.pilotId, at);
    return { unread: await deps.bell.unread(session.pilotId) };
  });
}

/**
 * Tells the pilot's open apps that their bell changed, on core NATS as realtime expects a direct
 * update: not stored, since an app that misses it (closed, or NATS away) reads the bell afresh
 * when it next opens. So a failure here is logged, never the pilot's.
 */
function bellChanged(deps: { bus: Bus; log: Logger }, pilotId: string, at: Date): void {
  const message: SseBellUpdated = { type: 'bell-updated', message: 'bell-updated', at: at.toISOString() };
  try {
    deps.bus.nc.publish(deps.bus.subject(realtimePilotSubject(pilotId)), JSON.stringify(message));
  } catch (error) {
    deps.log.warn({ err: error, pilotId }, 'could not tell open apps that alerts were read');
  }
}
