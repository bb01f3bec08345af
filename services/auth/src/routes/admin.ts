import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AdminReads } from '../domain/admin-reads';
import type { AuthUseCases } from '../domain/use-cases';

/**
 * The admin console's pilot pages, served by auth with admin sessions (signed by admin).
 * Pilots: manage_pilots. Sessions and registrations (home dashboard): manage_pilots or
 * view_analytics. Deleted pilots (Data Cleanup): manage_system, as the menu maps it, or manage_pilots.
 */
export function adminRoutes(app: FastifyInstance, deps: { guard: SessionGuard; reads: AdminReads; useCases: AuthUseCases }): void {
  const { reads, useCases } = deps;
  const route = routes(app);
  const pilots = adminWith(deps.guard, 'manage_pilots');
  const dashboard = adminWith(deps.guard, 'manage_pilots', 'view_analytics');
  // Data Cleanup, deleted pilots included, is manage_system's (the spec's menu mapping).
  const cleanup = adminWith(deps.guard, 'manage_system');

  route(API.adminPilots, { auth: pilots }, async ({ query }) => reads.pilots(query));

  route(API.adminUpdatePilot, { auth: pilots }, async ({ params, body }) =>
    useCases.adminUpdatePilot.execute({ pilotId: params.id, body }),
  );

  route(API.adminDeletePilot, { auth: pilots }, async ({ params }) => {
    await useCases.deletePilot.execute({ pilotId: params.id, coolingOff: false });
    return { message: 'The pilot has been successfully deleted.' };
  });

  route(API.adminResetPilotPassword, { auth: pilots }, async ({ params, body }) =>
    useCases.adminSetPassword.execute({ pilotId: params.id, body }),
  );

  route(API.activeSessions, { auth: dashboard }, async () => reads.activeSessions());

  route(API.sessionHistory, { auth: dashboard }, async () => reads.sessionHistory());

  route(API.recentRegistrations, { auth: dashboard }, async () => reads.recentRegistrations());

  route(API.deletedPilots, { auth: cleanup }, async () => reads.deletedPilots());

  route(API.purgeDeletedPilot, { auth: cleanup }, async ({ params }) => {
    await useCases.removeDeletedPilot.execute({ id: params.id });
    return { message: 'Pilot removed permanently.' };
  });
}
