import {
  CHANGE_PASSWORD_FIRST,
  CHANGE_PASSWORD_TITLE,
  forbidden,
  SESSION_EXPIRED_MESSAGE,
  unauthorized,
  type AdminSession,
  type PilotSession,
} from '@crewswap/kit';
import type { Permission } from '@crewswap/proto';
import type { FastifyRequest } from 'fastify';
import type { PilotRecord } from '../data/pilots';
import type { AuthContext } from '../domain/context';

/**
 * The signed-in pilot. Auth owns the sessions, so besides the token it checks the session is
 * still open here (which also holds while revocations cannot be followed); a pilot who must
 * change the password may do only that, whatever the token says.
 */
export async function requirePilot(
  ctx: AuthContext,
  request: FastifyRequest,
  options: { allowForcedChange?: boolean } = {},
): Promise<{ session: PilotSession; pilot: PilotRecord }> {
  const session = ctx.guard.pilot(request, { allowForcedChange: true, storeChecked: true });
  if (!(await ctx.repos.sessions.isOpen(session.sessionId, session.pilotId))) throw unauthorized(SESSION_EXPIRED_MESSAGE);
  const pilot = await ctx.repos.pilots.byId(session.pilotId);
  if (!pilot) throw unauthorized(SESSION_EXPIRED_MESSAGE);
  if (pilot.forcePasswordChange && !options.allowForcedChange) {
    throw forbidden(CHANGE_PASSWORD_FIRST, { title: CHANGE_PASSWORD_TITLE, extra: { forcePasswordChange: true } });
  }
  return { session, pilot };
}

/** An admin holding any one of `permissions` (a master admin holds them all). */
export function requireAdmin(ctx: AuthContext, request: FastifyRequest, ...permissions: Permission[]): AdminSession {
  const admin = ctx.guard.admin(request);
  if (admin.isMasterAdmin || permissions.some((permission) => admin.permissions.includes(permission))) return admin;
  throw forbidden('You do not have permission to do this.');
}
