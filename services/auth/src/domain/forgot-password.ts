import type { MessageResponse } from '@crewswap/proto';
import { normaliseEmail, type AuthDeps } from './deps';
import type { TemporaryPasswords } from './temporary-passwords';

export const FORGOT_PASSWORD_MESSAGE =
  'If you are registered, a new password will be sent to your registered email address. You can log in with it and will then be prompted to change it.';
/** Forgot-password resets a pilot at most this often, so the form cannot flood a mailbox. */
const FORGOT_INTERVAL_MS = 60_000;

/** Always the same answer, registered or not. */
export function createForgotPassword(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock'> & { temporaryPasswords: TemporaryPasswords }) {
  return {
    async execute(input: { email: string }): Promise<MessageResponse> {
      const pilot = await deps.repos.pilots.byEmail(normaliseEmail(input.email));
      const now = deps.clock.now().getTime();
      if (pilot && !(pilot.passwordResetAt && now - pilot.passwordResetAt.getTime() < FORGOT_INTERVAL_MS)) {
        await deps.db.transaction((trx) => deps.temporaryPasswords.reset(trx, pilot, 'forgot_password'));
      }
      return { message: FORGOT_PASSWORD_MESSAGE };
    },
  };
}
