import { badRequest, conflict } from '@crewswap/kit';
import { MIN_PASSWORD_LENGTH, type ForcePasswordChangeBody } from '@crewswap/proto';
import { toPilot, type PilotRecord } from '../data/pilots';
import type { AuthDeps } from './deps';
import type { LoginResult } from './login';
import type { PilotSessions } from './pilot-sessions';

/**
 * The only thing a pilot with a temporary password may do. The session stays open and its token
 * is re-issued without the flag that made every service refuse it.
 */
export function createForcePasswordChange(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'passwords'> & { sessions: PilotSessions }) {
  return {
    async execute(input: { session: { sessionId: string; pilotId: string }; pilot: PilotRecord; body: ForcePasswordChangeBody }): Promise<LoginResult> {
      const { session, pilot, body } = input;
      if (!body.newPassword || !body.confirmPassword) {
        throw badRequest('Please fill in both password fields.', { title: 'All Fields Required' });
      }
      if (body.newPassword.length < MIN_PASSWORD_LENGTH) {
        throw badRequest('Password must be at least 6 characters long.', { title: 'Password Too Short' });
      }
      if (body.newPassword !== body.confirmPassword) {
        throw badRequest('New password and confirmation do not match.', { title: "Passwords Don't Match" });
      }
      if (!pilot.forcePasswordChange) throw conflict('Your password does not need to be changed.');
      const now = deps.clock.now();
      const passwordHash = await deps.passwords.hash(body.newPassword);
      await deps.db.transaction((trx) => deps.repos.pilots.setPassword(pilot.id, { passwordHash, forcePasswordChange: false }, trx, now));
      return { token: deps.sessions.reissue(session), response: { pilot: toPilot(pilot), forcePasswordChange: false } };
    },
  };
}
