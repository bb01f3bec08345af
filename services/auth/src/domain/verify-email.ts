import { badRequest, tooMany } from '@crewswap/kit';
import { SUBJECTS, type MessageResponse } from '@crewswap/proto';
import { normaliseEmail, publishProfile, type AuthDeps } from './deps';
import { sameSecret, sha256 } from './passwords';

const VERIFY_WINDOW_MS = 15 * 60_000;
const MAX_WRONG_CODES = 5;

/** Accepts the mailed code or the current daily access code; more than 5 wrong in 15 minutes is 429. */
export function createVerifyEmail(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'settings' | 'outbox'>) {
  return {
    async execute(input: { email: string; code: string }): Promise<MessageResponse> {
      const { code } = input;
      const email = normaliseEmail(input.email);
      const now = deps.clock.now();
      const { verification, pilots } = deps.repos;
      if ((await verification.failuresSince(email, new Date(now.getTime() - VERIFY_WINDOW_MS))) >= MAX_WRONG_CODES) {
        throw tooMany('Too many incorrect codes. Please wait 15 minutes and try again.', { title: 'Too Many Attempts' });
      }
      const pilot = await pilots.byEmail(email);
      let valid = false;
      if (pilot) {
        const stored = await verification.get(pilot.id);
        valid = stored !== undefined && stored.expiresAt > now && sameSecret(sha256(code), stored.codeHash);
        const daily = (await deps.settings.get('daily_access_code')).replace(/\s/g, '');
        if (!valid && daily) valid = sameSecret(code, daily);
      }
      if (!pilot || !valid) {
        await verification.recordFailure(email, now);
        throw badRequest('The verification code is incorrect or has expired. Please check the code from your email.', {
          title: 'Verification Failed',
        });
      }
      await deps.db.transaction(async (trx) => {
        await verification.remove(pilot.id, trx);
        if (pilot.emailVerified) return;
        const updated = await pilots.update(pilot.id, { emailVerified: true }, trx, now);
        await publishProfile(deps.outbox, trx, SUBJECTS.pilotUpdated, updated);
      });
      return { message: 'Your email address is verified. You can now log in.' };
    },
  };
}
