import { badRequest, notFound } from '@crewswap/kit';
import { MIN_PASSWORD_LENGTH, type AdminPilotPasswordReply } from '@crewswap/proto';
import type { AuthDeps } from './deps';
import type { PilotSessions } from './pilot-sessions';

/** The admin sets a temporary password; the pilot must change it at the next login. */
export function createAdminSetPassword(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'passwords'> & { sessions: PilotSessions }) {
  const { repos } = deps;
  return {
    async execute(input: { pilotId: string; body: { password: string; confirmPassword?: string | undefined } }): Promise<AdminPilotPasswordReply> {
      const { body } = input;
      if (!body.password || body.confirmPassword === '') throw badRequest('Please fill in both password fields.');
      if (body.confirmPassword !== undefined && body.confirmPassword !== body.password) {
        throw badRequest('The passwords do not match. Please try again.');
      }
      if (body.password.length < MIN_PASSWORD_LENGTH) throw badRequest('Password must be at least 6 characters long.');
      const passwordHash = await deps.passwords.hash(body.password);
      const now = deps.clock.now();
      await deps.db.transaction(async (trx) => {
        const pilot = await repos.pilots.byId(input.pilotId, trx, { forUpdate: true });
        if (!pilot) throw notFound('Pilot not found.');
        await repos.pilots.setPassword(pilot.id, { passwordHash, forcePasswordChange: true, passwordResetAt: now }, trx, now);
        await deps.sessions.endForPilot(trx, pilot.id, 'password_reset');
      });
      return { temporaryPassword: body.password };
    },
  };
}
