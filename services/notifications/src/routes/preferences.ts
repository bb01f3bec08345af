import { routes, type SessionGuard } from '@crewswap/kit';
import { NotificationPreferences, UpdateNotificationPreferencesBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { createGetPreferences, createUpdatePreferences } from '../domain/preferences';

export function preferenceRoutes(
  app: FastifyInstance,
  deps: { guard: SessionGuard; getPreferences: ReturnType<typeof createGetPreferences>; updatePreferences: ReturnType<typeof createUpdatePreferences> },
): void {
  const route = routes(app);
  const pilot = deps.guard.pilot;

  route.get('/api/notifications/preferences', { auth: pilot, response: NotificationPreferences }, async ({ session }) => deps.getPreferences.execute(session.pilotId));

  route.put('/api/notifications/preferences', { auth: pilot, body: UpdateNotificationPreferencesBody, response: NotificationPreferences }, async ({ session, body }) =>
    deps.updatePreferences.execute(session.pilotId, body),
  );
}
