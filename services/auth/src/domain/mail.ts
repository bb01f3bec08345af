import { composeMail, type Executor } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { AuthContext } from './context';

interface Recipient {
  email: string;
  firstName: string;
}

/** Mail goes out through notifications (outbox command), in the transaction of the change. */
async function send(ctx: AuthContext, trx: Executor, to: Recipient, subject: string, lines: string[]): Promise<void> {
  const product = ctx.config.PRODUCT_NAME;
  const bodies = composeMail({ product, greeting: `Hello ${to.firstName},`, lines, link: ctx.config.APP_ORIGIN });
  await ctx.outbox.write(trx, SUBJECTS.sendMail, { to: to.email, subject: `${product}: ${subject}`, ...bodies });
}

export function mailVerificationCode(ctx: AuthContext, trx: Executor, to: Recipient, code: string): Promise<void> {
  return send(ctx, trx, to, 'your verification code', [
    `Your verification code is ${code}`,
    '',
    `Enter it in ${ctx.config.PRODUCT_NAME} when asked to verify your email address. It is valid for 24 hours.`,
  ]);
}

export type ResetCause = 'failed_logins' | 'forgot_password';

export function mailTemporaryPassword(ctx: AuthContext, trx: Executor, to: Recipient, password: string, cause: ResetCause): Promise<void> {
  const why =
    cause === 'failed_logins'
      ? 'There were 5 failed login attempts on your account, so your password has been reset.'
      : 'A password reset was requested for your account.';
  return send(ctx, trx, to, 'your temporary password', [
    why,
    '',
    `Your temporary password is: ${password}`,
    '',
    'Log in with it and you will be asked to choose a new password.',
    'If you did not ask for this, log in with the temporary password and choose a new one.',
  ]);
}
