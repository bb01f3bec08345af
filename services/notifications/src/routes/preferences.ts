import { parse, type SessionGuard } from '@crewswap/kit';
import { UpdateNotificationPreferencesBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { createGetPreferences, createUpdatePreferences } from '../domain/preferences';

export function preferenceRoutes(
  app: FastifyInstance,
  deps: { guard: SessionGuard; getPreferences: ReturnType<typeof createGetPreferences>; updatePreferences: ReturnType<typeof createUpdatePreferences> },
): void {
  app.get('/api/notifications/preferences', async (request) => {
    const { pilotId } = deps.guard.pilot(request);
    return deps.getPreferences.execute(pilotId);
  });

  app.put('/api/notifications/preferences', async (request) => {
    const { pilotId } = deps.guard.pilot(request);
    return deps.updatePreferences.execute(pilotId, parse(UpdateNotificationPreferencesBody, request.body ?? {}));
  });
}
