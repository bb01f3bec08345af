import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { createGetPreferences, createUpdatePreferences } from '../domain/preferences';

export function preferenceRoutes(
  app: FastifyInstance,
  deps: { guard: SessionGuard; getPreferences: ReturnType<typeof createGetPreferences>; updatePreferences: ReturnType<typeof createUpdatePreferences> },
): void {
  const route = routes(app);
  const pilot = deps.guard.pilot;

  route(API.notificationPreferences, { auth: pilot }, async ({ session }) => deps.getPreferences.execute(session.pilotId));

  route(API.updateNotificationPreferences, { auth: pilot }, async ({ session, body }) =>
    deps.updatePreferences.execute(session.pilotId, body),
  );
}
