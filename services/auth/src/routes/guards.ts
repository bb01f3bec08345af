import {
  CHANGE_PASSWORD_FIRST,
  CHANGE_PASSWORD_TITLE,
  forbidden,
  notFound,
  parse,
  SESSION_EXPIRED_MESSAGE,
  sessionEnded,
  unauthorized,
  type PilotSession,
  type SessionGuard,
} from '@crewswap/kit';
import { IdParams } from '@crewswap/proto';
import type { FastifyRequest } from 'fastify';
import type { PilotRecord } from '../data/pilots';
import type { Repositories } from '../domain/deps';

export interface SignedInPilot {
  session: PilotSession;
  pilot: PilotRecord;
}

/**
 * Route `auth` options for auth's own pilot routes. Auth owns the sessions, so besides the token
 * it checks the session is still open here (which also holds while revocations cannot be
 * followed); a pilot who must change the password may do only that, whatever the token says.
 */
export function pilotGuards(guard: SessionGuard, repos: Repositories) {
  async function signedIn(request: FastifyRequest, options: { allowForcedChange?: boolean } = {}): Promise<SignedInPilot> {
    const session = await guard.pilot(request, { allowForcedChange: true, storeChecked: true });
    const state = await repos.sessions.state(session.sessionId, session.pilotId);
    if (!state.open) throw sessionEnded(state.endReason);
    const pilot = await repos.pilots.byId(session.pilotId);
    if (!pilot) throw unauthorized(SESSION_EXPIRED_MESSAGE);
    if (pilot.forcePasswordChange && !options.allowForcedChange) {
      throw forbidden(CHANGE_PASSWORD_FIRST, { title: CHANGE_PASSWORD_TITLE, extra: { forcePasswordChange: true } });
    }
    return { session, pilot };
  }

  return {
    pilot: (request: FastifyRequest) => signedIn(request),
    /** The password change itself: a pilot with a temporary password may use it. */
    pilotChangingPassword: (request: FastifyRequest) => signedIn(request, { allowForcedChange: true }),
    /** The signed-in pilot acting on their own `:id`; another pilot's id is 404, as if it did not exist. */
    async ownPilot(request: FastifyRequest): Promise<SignedInPilot> {
      const found = await signedIn(request);
      if (found.pilot.id !== parse(IdParams, request.params).id) throw notFound('Pilot not found.');
      return found;
    },
    /** Logout: the session if there is one, checked in auth's own store so it works while NATS is away. */
    async loggingOut(request: FastifyRequest): Promise<PilotSession | undefined> {
      try {
        return await guard.pilot(request, { allowForcedChange: true, storeChecked: true });
      } catch {
        return undefined;
      }
    },
  };
}
