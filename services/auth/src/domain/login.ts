import { badRequest, conflict, forbidden, HttpError, notFound, signPilotToken, type Executor } from '@crewswap/kit';
import {
  MAX_LOGIN_ATTEMPTS,
  MIN_PASSWORD_LENGTH,
  type ForcePasswordChangeBody,
  type LoginBody,
  type LoginResponse,
  type MessageResponse,
  type TestLoginBody,
} from '@crewswap/proto';
import { toPilot, type PilotRecord } from '../data/pilots';
import { normaliseEmail, type AuthContext } from './context';
import { mailTemporaryPassword, type ResetCause } from './mail';
import { sameSecret, temporaryPassword } from './passwords';
import { ensureVerificationCode } from './registration';
import { endPilotSessions, startSession } from './sessions';

export const INVALID_LOGIN = 'Invalid email or password.';
export const LAST_ATTEMPT_WARNING =
  'Invalid email or password. You have 1 attempt left: one more failed attempt will reset your password and email you a temporary one.';
export const PASSWORD_RESET_MESSAGE =
  'Too many failed login attempts. Your password has been reset and a temporary password has been sent to your registered email address.';
export const SHUTDOWN_MESSAGE =
  'CrewSwap is temporarily unavailable: an administrator has paused the system. Please try again later.';
export const FORGOT_PASSWORD_MESSAGE =
  'If you are registered, a new password will be sent to your registered email address. You can log in with it and will then be prompted to change it.';
/** A second round of 5 failures within this time of a reset locks the account instead of mailing again. */
const RELOCK_WINDOW_MS = 3600_000;
const LOCK_MS = 3600_000;
/** Forgot-password resets a pilot at most this often, so the form cannot flood a mailbox. */
const FORGOT_INTERVAL_MS = 60_000;

export interface LoginResult {
  response: LoginResponse;
  token: string;
}

const refuse = (status: number, message: string, flags: Record<string, unknown>, title?: string) =>
  new HttpError(status, message, { extra: flags, ...(title ? { title } : {}) });

async function assertNotShutdown(ctx: AuthContext): Promise<void> {
  if (await ctx.repos.system.isShutdown()) {
    throw refuse(503, SHUTDOWN_MESSAGE, { systemShutdown: true }, 'System Temporarily Unavailable');
  }
}

/**
 * Failures count per email tried (registered or not, so the answers never tell which): 5
 * consecutive failures reset the password and mail a temporary one; 5 more within the hour
 * lock the account for an hour instead (423, no more mail).
 */
export async function login(ctx: AuthContext, body: LoginBody): Promise<LoginResult> {
  await assertNotShutdown(ctx);
  const email = normaliseEmail(body.email);
  const now = ctx.clock.now();
  const attempt = await ctx.repos.attempts.get(email);
  if (attempt?.lockedUntil && attempt.lockedUntil > now) throw locked(attempt.lockedUntil, now);

  const pilot = await ctx.repos.pilots.byEmail(email);
  const correct = await ctx.passwords.verify(body.password, pilot?.passwordHash);
  if (!pilot || !correct) throw await failedAttempt(ctx, email, pilot);

  await ctx.repos.attempts.clear(email);
  if (!pilot.emailVerified) {
    await ensureVerificationCode(ctx, pilot);
    throw refuse(
      403,
      'Please verify your email address: enter the verification code we emailed you.',
      { emailVerificationRequired: true },
      'VS Pilot Verification Required',
    );
  }
  const token = await ctx.db.transaction((trx) => startSession(ctx, trx, pilot.id, pilot.forcePasswordChange));
  return { token, response: { pilot: toPilot(pilot), forcePasswordChange: pilot.forcePasswordChange } };
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

async function failedAttempt(ctx: AuthContext, email: string, pilot: PilotRecord | undefined): Promise<HttpError> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (trx) => {
    const attempt = await ctx.repos.attempts.recordFailure(email, now, trx);
    const remaining = MAX_LOGIN_ATTEMPTS - attempt.failedCount;
    if (remaining > 1) return refuse(401, INVALID_LOGIN, { remainingAttempts: remaining });
    if (remaining === 1) return refuse(401, LAST_ATTEMPT_WARNING, { remainingAttempts: 1 });
    if (attempt.lastResetAt && now.getTime() - attempt.lastResetAt.getTime() < RELOCK_WINDOW_MS) {
      const until = new Date(now.getTime() + LOCK_MS);
      await ctx.repos.attempts.lock(email, until, trx);
      return locked(until, now);
    }
    await ctx.repos.attempts.markReset(email, now, trx);
    if (pilot) await resetToTemporaryPassword(ctx, trx, pilot, 'failed_logins');
    return refuse(401, PASSWORD_RESET_MESSAGE, { passwordReset: true, remainingAttempts: 0 }, 'Password Reset');
  });
}

/** A mailed temporary password that must be changed at the next login; open sessions end. */
async function resetToTemporaryPassword(ctx: AuthContext, trx: Executor, pilot: PilotRecord, cause: ResetCause): Promise<void> {
  const password = temporaryPassword();
  const now = ctx.clock.now();
  await ctx.repos.pilots.setPassword(
    pilot.id,
    { passwordHash: await ctx.passwords.hash(password), forcePasswordChange: true, passwordResetAt: now },
    trx,
    now,
  );
  await endPilotSessions(ctx, trx, pilot.id, 'password_reset');
  await mailTemporaryPassword(ctx, trx, pilot, password, cause);
}

/** Always the same answer, registered or not. */
export async function forgotPassword(ctx: AuthContext, email: string): Promise<MessageResponse> {
  const pilot = await ctx.repos.pilots.byEmail(normaliseEmail(email));
  const now = ctx.clock.now().getTime();
  if (pilot && !(pilot.passwordResetAt && now - pilot.passwordResetAt.getTime() < FORGOT_INTERVAL_MS)) {
    await ctx.db.transaction((trx) => resetToTemporaryPassword(ctx, trx, pilot, 'forgot_password'));
  }
  return { message: FORGOT_PASSWORD_MESSAGE };
}

/**
 * The only thing a pilot with a temporary password may do. The session stays open and its token
 * is re-issued without the flag that made every service refuse it.
 */
export async function forcePasswordChange(
  ctx: AuthContext,
  session: { sessionId: string; pilotId: string },
  pilot: PilotRecord,
  body: ForcePasswordChangeBody,
): Promise<LoginResult> {
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
  const now = ctx.clock.now();
  const passwordHash = await ctx.passwords.hash(body.newPassword);
  await ctx.db.transaction((trx) => ctx.repos.pilots.setPassword(pilot.id, { passwordHash, forcePasswordChange: false }, trx, now));
  const token = signPilotToken(ctx.privateKey, { sessionId: session.sessionId, pilotId: session.pilotId });
  return { token, response: { pilot: toPilot(pilot), forcePasswordChange: false } };
}

/**
 * The testing password is one secret for every pilot, so its failures are counted together, under
 * a key no email can be: 5 wrong in a row lock test login for everyone for 15 minutes, the right
 * password included, as 5 wrong passwords stop a pilot's login.
 */
const TEST_LOGIN_KEY = 'test-login:testing-password';
const TEST_LOGIN_LOCK_MS = 15 * 60_000;

function testLoginLocked(until: Date, now: Date): HttpError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new HttpError(429, `Too many wrong testing passwords. Test login is locked; please try again in ${minutes} minutes.`, {
    title: 'Test Login Failed',
    extra: { accountLocked: true },
  });
}

async function failedTestLogin(ctx: AuthContext, now: Date): Promise<HttpError> {
  return ctx.db.transaction(async (trx) => {
    const attempt = await ctx.repos.attempts.recordFailure(TEST_LOGIN_KEY, now, trx);
    const remaining = MAX_LOGIN_ATTEMPTS - attempt.failedCount;
    if (remaining > 0) return forbidden('Incorrect password.', { title: 'Access Denied', extra: { remainingAttempts: remaining } });
    const until = new Date(now.getTime() + TEST_LOGIN_LOCK_MS);
    await ctx.repos.attempts.lock(TEST_LOGIN_KEY, until, trx);
    return testLoginLocked(until, now);
  });
}

/** Testing mode only: the testing password (a setting, never sent to a browser) logs in as any pilot. */
export async function testLogin(ctx: AuthContext, body: TestLoginBody): Promise<LoginResult> {
  await assertTestingMode(ctx);
  await assertNotShutdown(ctx);
  const now = ctx.clock.now();
  const attempt = await ctx.repos.attempts.get(TEST_LOGIN_KEY);
  if (attempt?.lockedUntil && attempt.lockedUntil > now) throw testLoginLocked(attempt.lockedUntil, now);
  const expected = await ctx.settings.get('testing_password');
  if (!expected || !sameSecret(body.password, expected)) throw await failedTestLogin(ctx, now);
  await ctx.repos.attempts.clear(TEST_LOGIN_KEY);
  const pilot = await ctx.repos.pilots.byEmail(normaliseEmail(body.email));
  if (!pilot) throw notFound('No pilot is registered with that email.', { title: 'Test Login Failed' });
  const token = await ctx.db.transaction((trx) => startSession(ctx, trx, pilot.id, pilot.forcePasswordChange));
  return { token, response: { pilot: toPilot(pilot), forcePasswordChange: pilot.forcePasswordChange } };
}

/** Outside testing mode the testing routes do not exist. */
export async function assertTestingMode(ctx: AuthContext): Promise<void> {
  if ((await ctx.settings.get('testing_button_enabled')) !== 'true') throw notFound('Not found');
}
