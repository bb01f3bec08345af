import { ADMIN_COOKIE, clearSessionCookie, parse, setSessionCookie, type AdminSession, type Runtime } from '@crewswap/kit';
import { AdminLoginBody, type AdminLoginResponse, type CurrentAdmin, type MessageResponse } from '@crewswap/proto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminSessions } from '../domain/sessions';

export function sessionRoutes(app: FastifyInstance, deps: { runtime: Runtime; sessions: AdminSessions; secureCookies: boolean }): void {
  const { runtime, sessions } = deps;

  app.post('/api/admin/login', async (request, reply): Promise<AdminLoginResponse> => {
    // No body at all is two blank fields, and gets the same message.
    const body = parse(AdminLoginBody, request.body ?? {});
    const { token, admin } = await sessions.login({
      ...body,
      ipAddress: request.ip ?? null,
      userAgent: request.headers['user-agent'] ?? null,
    });
    setSessionCookie(reply, ADMIN_COOKIE, token, deps.secureCookies);
    return admin;
  });

  // Logging out always succeeds for the caller: without a live session there is nothing to end.
  app.post('/api/admin/logout', async (request, reply): Promise<MessageResponse> => {
    const session = optionalAdmin(request);
    if (session) await sessions.logout(session, request.ip ?? null);
    clearSessionCookie(reply, ADMIN_COOKIE);
    return { message: 'Logged out' };
  });

  app.get('/api/admin/current', async (request): Promise<CurrentAdmin> => sessions.current(runtime.guard.admin(request)));

  function optionalAdmin(request: FastifyRequest): AdminSession | undefined {
    try {
      return runtime.guard.admin(request);
    } catch {
      return undefined;
    }
  }
}
