import { badRequest, parse, type Runtime } from '@crewswap/kit';
import { EmergencyShutdownBody, type EmergencyShutdownResponse, type EmergencyStatus, type MessageResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { EmergencyService } from '../domain/emergency';

const CONFIRM_MESSAGE = 'Please type EMERGENCY to confirm';

/** Emergency controls: manage_system (a master admin has it). */
export function emergencyRoutes(app: FastifyInstance, deps: { runtime: Runtime; emergency: EmergencyService }): void {
  const { runtime, emergency } = deps;
  const guard = runtime.guard;

  app.get('/api/admin/emergency-status', async (request): Promise<EmergencyStatus> => {
    guard.admin(request, 'manage_system');
    return emergency.status();
  });

  // The console posts {reason} only after the admin typed EMERGENCY; a bare POST is refused.
  app.post('/api/admin/emergency-shutdown', async (request): Promise<EmergencyShutdownResponse> => {
    const session = guard.admin(request, 'manage_system');
    const body: unknown = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest(CONFIRM_MESSAGE);
    const { reason } = parse(EmergencyShutdownBody, body);
    return emergency.shutdown(session, reason);
  });

  app.post('/api/admin/resume-operations', async (request): Promise<MessageResponse> => emergency.resume(guard.admin(request, 'manage_system')));

  app.post('/api/admin/restart-server', async (request): Promise<MessageResponse> => {
    guard.admin(request, 'manage_system');
    return emergency.restart();
  });
}
