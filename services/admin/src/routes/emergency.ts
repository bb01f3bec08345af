import { adminWith, badRequest, parse, routes, type Runtime } from '@crewswap/kit';
import { API, EMERGENCY_PERMISSIONS, type EmergencyShutdownResponse, type EmergencyStatus, type MessageResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { SystemStateRepository } from '../data/system-state-repository';
import type { AdminUseCases } from '../domain/use-cases';

const CONFIRM_MESSAGE = 'Please type EMERGENCY to confirm';

/** Emergency controls and the restart: EMERGENCY_PERMISSIONS (the Security panel's; a master admin has them). */
export function emergencyRoutes(app: FastifyInstance, deps: { runtime: Runtime; systemState: SystemStateRepository; useCases: Pick<AdminUseCases, 'shutdownSystem' | 'resumeSystem' | 'restartSystem'> }): void {
  const { systemState, useCases } = deps;
  const route = routes(app);
  const auth = adminWith(deps.runtime.guard, ...EMERGENCY_PERMISSIONS);

  route(API.emergencyStatus, { auth }, async (): Promise<EmergencyStatus> => ({ isShutdown: await systemState.isShutdown() }));

  // The console posts {reason} only after the admin typed EMERGENCY; a bare POST (which a
  // declared body would read as {}) is refused, so the body is checked here.
  route(API.emergencyShutdown, { auth, handlerReadsBody: true }, async ({ session, request }): Promise<EmergencyShutdownResponse> => {
    const body: unknown = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest(CONFIRM_MESSAGE);
    const { reason } = parse(API.emergencyShutdown.body, body);
    return useCases.shutdownSystem.execute({ actor: session, reason });
  });

  route(API.resumeOperations, { auth }, async ({ session }): Promise<MessageResponse> => useCases.resumeSystem.execute({ actor: session }));

  route(API.restartServer, { auth }, async (): Promise<MessageResponse> => useCases.restartSystem.execute());
}
