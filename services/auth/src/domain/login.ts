import { HttpError } from '@crewswap/kit';
import { MAX_LOGIN_ATTEMPTS, SYSTEM_SHUTDOWN_MESSAGE, SYSTEM_SHUTDOWN_TITLE, type LoginBody, type LoginResponse } from '@crewswap/proto';
import { toPilot, type PilotRecord } from '../data/pilots';
import type { SystemStateRepository } from '../data/system-state';
import { normaliseEmail, type AuthDeps } from './deps';
import type { PilotSessions } from './pilot-sessions';
import type { TemporaryPasswords } from './temporary-passwords';
import type { VerificationCodes } from './verification-codes';

export const INVALID_LOGIN = 'Invalid email or password.';
export const LAST_ATTEMPT_WARNING =
  'Invalid email or password. You have 1 attempt left: one more failed attempt will reset your password and email you a temporary one.';
export const PASSWORD_RESET_MESSAGE =
  'Too many failed login attempts. Your password has been reset and a temporary password has been sent to your registered email address.';
export const SHUTDOWN_MESSAGE = SYSTEM_SHUTDOWN_MESSAGE;
/** A second round of 5 failures within this time of a reset locks the account instead of mailing again. */
const RELOCK_WINDOW_MS = 3600_000;
const LOCK_MS = 3600_000;

export interface LoginResult {
  response: LoginResponse;
  token: string;
}

export const refuse = (status: number, message: string, flags: Record<string, unknown>, title?: string) =>
  new HttpError(status, message, { extra: flags, ...(title ? { title } : {}) });

export async function assertNotShutdown(system: SystemStateRepository): Promise<void> {
  if (await system.isShutdown()) {
    throw refuse(503, SHUTDOWN_MESSAGE, { systemShutdown: true }, SYSTEM_SHUTDOWN_TITLE);
  }
}

function locked(until: Date, now: Date): HttpError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return refuse(
    423,
    `Your account is locked after too many failed login attempts. Please try again in ${minutes} minutes, using the temporary password we emailed you.`,
    { accountLocked: true },
    'Account Locked',
  );
}

/**
 * Failures count per email tried (registered or not, so the answers never tell which): 5
 * consecutive failures reset the password and mail a temporary one; 5 more within the hour
 * lock the account for an hour instead (423, no more mail).
 */
export function createLogin(
  deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'passwords'> & { sessions: PilotSessions; codes: VerificationCodes; temporaryPasswords: TemporaryPasswords },
) {
  const { db, repos, clock } = deps;

  async function failedAttempt(email: string, pilot: PilotRecord | undefined): Promise<HttpError> {
    const now = clock.now();
    return db.transaction(async (trx) => {
      const attempt = await repos.attempts.recordFailure(email, now, trx);
      const remaining = MAX_LOGIN_ATTEMPTS - attempt.failedCount;
      if (remaining > 1) return refuse(401, INVALID_LOGIN, { remainingAttempts: remaining });
      if (remaining === 1) return refuse(401, LAST_ATTEMPT_WARNING, { remainingAttempts: 1 });
      if (attempt.lastResetAt && now.getTime() - attempt.lastResetAt.getTime() < RELOCK_WINDOW_MS) {
        const until = new Date(now.getTime() + LOCK_MS);
        await repos.attempts.lock(email, until, trx);
        return locked(until, now);
      }
      await repos.attempts.markReset(email, now, trx);
      if (pilot) await deps.temporaryPasswords.reset(trx, pilot, 'failed_logins');
      return refuse(401, PASSWORD_RESET_MESSAGE, { passwordReset: true, remainingAttempts: 0 }, 'Password Reset');
    });
  }

  return {
    async execute(body: LoginBody): Promise<LoginResult> {
      await assertNotShutdown(repos.system);
      const email = normaliseEmail(body.email);
      const now = clock.now();
      const attempt = await repos.attempts.get(email);
      if (attempt?.lockedUntil && attempt.lockedUntil > now) throw locked(attempt.lockedUntil, now);

      const pilot = await repos.pilots.byEmail(email);
      const correct = await deps.passwords.verify(body.password, pilot?.passwordHash);
      if (!pilot || !correct) throw await failedAttempt(email, pilot);

      await repos.attempts.clear(email);
      if (!pilot.emailVerified) {
        await deps.codes.ensure(pilot);
        throw refuse(
          403,
          'Please verify your email address: enter the verification code we emailed you.',
          { emailVerificationRequired: true },
          'VS Pilot Verification Required',
        );
      }
      const token = await db.transaction((trx) => deps.sessions.start(trx, pilot.id, pilot.forcePasswordChange));
      return { token, response: { pilot: toPilot(pilot), forcePasswordChange: pilot.forcePasswordChange } };
    },
  };
}
