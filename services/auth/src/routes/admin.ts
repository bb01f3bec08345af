import { parse } from '@crewswap/kit';
import { AdminPilotPasswordBody, AdminPilotsQuery, AdminUpdatePilotBody, IdParams } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import {
  activeSessions,
  adminSetPassword,
  adminUpdatePilot,
  listDeletedPilots,
  listPilots,
  recentRegistrations,
  removeDeletedPilot,
  sessionHistory,
} from '../domain/admin';
import type { AuthContext } from '../domain/context';
import { deletePilot } from '../domain/profile';
import { requireAdmin } from './guards';

/**
 * The admin console's pilot pages, served by auth with admin sessions (signed by admin).
 * Pilots: manage_pilots. Sessions and registrations (home dashboard): manage_pilots or
 * view_analytics. Deleted pilots (Data Cleanup): manage_system, as the menu maps it, or manage_pilots.
 */
export function adminRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/api/admin/pilots', async (request) => {
    requireAdmin(ctx, request, 'manage_pilots');
    return listPilots(ctx, parse(AdminPilotsQuery, request.query));
  });

  app.patch('/api/admin/pilots/:id', async (request) => {
    requireAdmin(ctx, request, 'manage_pilots');
    const { id } = parse(IdParams, request.params);
    return adminUpdatePilot(ctx, id, parse(AdminUpdatePilotBody, request.body));
  });

  app.delete('/api/admin/pilots/:id', async (request) => {
    requireAdmin(ctx, request, 'manage_pilots');
    const { id } = parse(IdParams, request.params);
    await deletePilot(ctx, id, { coolingOff: false });
    return { message: 'The pilot has been successfully deleted.' };
  });

  app.patch('/api/admin/pilots/:id/password', async (request) => {
    requireAdmin(ctx, request, 'manage_pilots');
    const { id } = parse(IdParams, request.params);
    return adminSetPassword(ctx, id, parse(AdminPilotPasswordBody, request.body));
  });

  app.get('/api/admin/sessions/active', async (request) => {
    requireAdmin(ctx, request, 'manage_pilots', 'view_analytics');
    return activeSessions(ctx);
  });

  app.get('/api/admin/sessions/history', async (request) => {
    requireAdmin(ctx, request, 'manage_pilots', 'view_analytics');
    return sessionHistory(ctx);
  });

  app.get('/api/admin/recent-registrations', async (request) => {
    requireAdmin(ctx, request, 'manage_pilots', 'view_analytics');
    return recentRegistrations(ctx);
  });

  app.get('/api/admin/cleanup/deleted-pilots', async (request) => {
    requireAdmin(ctx, request, 'manage_system');
    return listDeletedPilots(ctx);
  });

  app.delete('/api/admin/cleanup/deleted-pilots/:id', async (request) => {
    requireAdmin(ctx, request, 'manage_system');
    const { id } = parse(IdParams, request.params);
    await removeDeletedPilot(ctx, id);
    return { message: 'Pilot removed permanently.' };
  });
}
