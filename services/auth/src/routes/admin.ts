import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import { AdminPilotPasswordBody, AdminPilotsQuery, AdminUpdatePilotBody, IdParams } from '@crewswap/proto';
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

  route.get('/api/admin/pilots', { auth: pilots, query: AdminPilotsQuery }, async ({ query }) => reads.pilots(query));

  route.patch('/api/admin/pilots/:id', { auth: pilots, params: IdParams, body: AdminUpdatePilotBody }, async ({ params, body }) =>
    useCases.adminUpdatePilot.execute({ pilotId: params.id, body }),
  );

  route.delete('/api/admin/pilots/:id', { auth: pilots, params: IdParams }, async ({ params }) => {
    await useCases.deletePilot.execute({ pilotId: params.id, coolingOff: false });
    return { message: 'The pilot has been successfully deleted.' };
  });

  route.patch('/api/admin/pilots/:id/password', { auth: pilots, params: IdParams, body: AdminPilotPasswordBody }, async ({ params, body }) =>
    useCases.adminSetPassword.execute({ pilotId: params.id, body }),
  );

  route.get('/api/admin/sessions/active', { auth: dashboard }, async () => reads.activeSessions());

  route.get('/api/admin/sessions/history', { auth: dashboard }, async () => reads.sessionHistory());

  route.get('/api/admin/recent-registrations', { auth: dashboard }, async () => reads.recentRegistrations());

  route.get('/api/admin/cleanup/deleted-pilots', { auth: cleanup }, async () => reads.deletedPilots());

  route.delete('/api/admin/cleanup/deleted-pilots/:id', { auth: cleanup, params: IdParams }, async ({ params }) => {
    await useCases.removeDeletedPilot.execute({ id: params.id });
    return { message: 'Pilot removed permanently.' };
  });
}
