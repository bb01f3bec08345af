import { ADMIN_COOKIE, clearSessionCookie, optional, routes, setSessionCookie, type Runtime } from '@crewswap/kit';
import { API, type AdminLoginResponse, type CurrentAdmin, type MessageResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AdminRepository } from '../data/admin-repository';
import { currentAdmin } from '../domain/sessions';
import type { AdminUseCases } from '../domain/use-cases';

export function sessionRoutes(app: FastifyInstance, deps: { runtime: Runtime; admins: AdminRepository; useCases: Pick<AdminUseCases, 'loginAdmin' | 'logoutAdmin'>; secureCookies: boolean }): void {
  const { runtime, admins, useCases } = deps;
  const route = routes(app);

  // No body at all is two blank fields, and gets the same message.
  route(API.adminLogin, { auth: 'none' }, async ({ body, request, reply }): Promise<AdminLoginResponse> => {
    const { token, admin } = await useCases.loginAdmin.execute({
      ...body,
      ipAddress: request.ip ?? null,
      userAgent: request.headers['user-agent'] ?? null,
    });
    setSessionCookie(reply, ADMIN_COOKIE, token, deps.secureCookies);
    return admin;
  });

  // Logging out always succeeds for the caller: without a live session there is nothing to end.
  route(API.adminLogout, { auth: optional(runtime.guard.admin) }, async ({ session, request, reply }): Promise<MessageResponse> => {
    if (session) await useCases.logoutAdmin.execute(session, request.ip ?? null);
    clearSessionCookie(reply, ADMIN_COOKIE);
    return { message: 'Logged out' };
  });

  route(API.currentAdmin, { auth: runtime.guard.admin }, async ({ session }): Promise<CurrentAdmin> => currentAdmin(admins, session));
}
