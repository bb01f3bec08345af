import type { Clock, Executor } from '@crewswap/kit';
import type { PilotRecord, PilotRepository } from '../data/pilots';
import type { AuthMail, ResetCause } from './mail';
import { temporaryPassword, type Passwords } from './passwords';
import type { PilotSessions } from './pilot-sessions';

/** A mailed temporary password that must be changed at the next login; open sessions end. */
export function createTemporaryPasswords(deps: { pilots: PilotRepository; passwords: Passwords; clock: Clock; sessions: PilotSessions; mail: AuthMail }) {
  return {
    async reset(trx: Executor, pilot: PilotRecord, cause: ResetCause): Promise<void> {
      const password = temporaryPassword();
      const now = deps.clock.now();
      await deps.pilots.setPassword(pilot.id, { passwordHash: await deps.passwords.hash(password), forcePasswordChange: true, passwordResetAt: now }, trx, now);
      await deps.sessions.endForPilot(trx, pilot.id, 'password_reset');
      await deps.mail.temporaryPassword(trx, pilot, password, cause);
    },
  };
}
export type TemporaryPasswords = ReturnType<typeof createTemporaryPasswords>;
