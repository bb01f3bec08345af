import { composeMail, type Executor, type Outbox } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Config } from '../config';

interface Recipient {
  email: string;
  firstName: string;
}

export type ResetCause = 'failed_logins' | 'forgot_password';

/** Auth's mails. They go out through notifications (an outbox command), in the transaction of the change. */
export function createAuthMail(deps: { outbox: Outbox; config: Pick<Config, 'PRODUCT_NAME' | 'APP_ORIGIN'> }) {
  const product = deps.config.PRODUCT_NAME;

  async function send(trx: Executor, to: Recipient, subject: string, lines: string[]): Promise<void> {
    const bodies = composeMail({ product, greeting: `Hello ${to.firstName},`, lines, link: deps.config.APP_ORIGIN });
    await deps.outbox.write(trx, SUBJECTS.sendMail, { to: to.email, subject: `${product}: ${subject}`, ...bodies });
  }

  return {
    verificationCode(trx: Executor, to: Recipient, code: string): Promise<void> {
      return send(trx, to, 'your verification code', [
        `Your verification code is ${code}`,
        '',
        `Enter it in ${product} when asked to verify your email address. It is valid for 24 hours.`,
      ]);
    },

    temporaryPassword(trx: Executor, to: Recipient, password: string, cause: ResetCause): Promise<void> {
      const why =
        cause === 'failed_logins'
          ? 'There were 5 failed login attempts on your account, so your password has been reset.'
          : 'A password reset was requested for your account.';
      return send(trx, to, 'your temporary password', [
        why,
        '',
        `Your temporary password is: ${password}`,
        '',
        'Log in with it and you will be asked to choose a new password.',
        'If you did not ask for this, log in with the temporary password and choose a new one.',
      ]);
    },
  };
}
export type AuthMail = ReturnType<typeof createAuthMail>;
