import { tooMany } from '@crewswap/kit';
import type { MessageResponse } from '@crewswap/proto';
import { normaliseEmail, type AuthDeps } from './deps';
import type { VerificationCodes } from './verification-codes';

const RESEND_INTERVAL_MS = 60_000;
export const RESEND_MESSAGE = 'If this email address is registered and not yet verified, a new verification code has been sent to it.';

/**
 * Mails a new code to a registered, unverified address, and answers the same whether or not the
 * address is registered. At most one mail a minute, so the form cannot flood a pilot's inbox; a
 * request inside that minute is refused with the seconds left (429), never answered as if a mail
 * had left.
 */
export function createResendVerification(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock'> & { codes: VerificationCodes }) {
  return {
    async execute(input: { email: string }): Promise<MessageResponse> {
      const pilot = await deps.repos.pilots.byEmail(normaliseEmail(input.email));
      if (pilot && !pilot.emailVerified) {
        const current = await deps.repos.verification.get(pilot.id);
        const waitMs = current ? current.sentAt.getTime() + RESEND_INTERVAL_MS - deps.clock.now().getTime() : 0;
        if (waitMs > 0) {
          const seconds = Math.ceil(waitMs / 1000);
          throw tooMany(`A verification code was sent less than a minute ago. Please wait ${seconds} seconds before asking for another.`, {
            title: 'Please Wait',
            extra: { retryAfterSeconds: seconds },
          });
        }
        await deps.db.transaction((trx) => deps.codes.send(trx, pilot));
      }
      return { message: RESEND_MESSAGE };
    },
  };
}
