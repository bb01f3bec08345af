import { forbidden, HttpError, notFound, type SettingsClient } from '@crewswap/kit';
import { MAX_LOGIN_ATTEMPTS, type TestLoginBody } from '@crewswap/proto';
import { toPilot } from '../data/pilots';
import { normaliseEmail, type AuthDeps } from './deps';
import { assertNotShutdown, type LoginResult } from './login';
import { sameSecret } from './passwords';
import type { PilotSessions } from './pilot-sessions';

/**
 * The testing password is one secret for every pilot, so its failures are counted together, under
 * a key no email can be: 5 wrong in a row lock test login for everyone for 15 minutes, the right
 * password included, as 5 wrong passwords stop a pilot's login.
 */
const TEST_LOGIN_KEY = 'test-login:testing-password';
const TEST_LOGIN_LOCK_MS = 15 * 60_000;

/** Outside testing mode the testing routes do not exist. */
export async function assertTestingMode(settings: Pick<SettingsClient, 'get'>): Promise<void> {
  if ((await settings.get('testing_button_enabled')) !== 'true') throw notFound('Not found');
}

function testLoginLocked(until: Date, now: Date): HttpError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new HttpError(429, `Too many wrong testing passwords. Test login is locked; please try again in ${minutes} minutes.`, {
    title: 'Test Login Failed',
    extra: { accountLocked: true },
  });
}

/** Testing mode only: the testing password (a setting, never sent to a browser) logs in as any pilot. */
export function createTestLogin(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'settings'> & { sessions: PilotSessions }) {
  const { db, repos, clock } = deps;

  async function failedTestLogin(now: Date): Promise<HttpError> {
    return db.transaction(async (trx) => {
      const attempt = await repos.attempts.recordFailure(TEST_LOGIN_KEY, now, trx);
      const remaining = MAX_LOGIN_ATTEMPTS - attempt.failedCount;
      if (remaining > 0) return forbidden('Incorrect password.', { title: 'Access Denied', extra: { remainingAttempts: remaining } });
      const until = new Date(now.getTime() + TEST_LOGIN_LOCK_MS);
      await repos.attempts.lock(TEST_LOGIN_KEY, until, trx);
      return testLoginLocked(until, now);
    });
  }

  return {
    async execute(body: TestLoginBody): Promise<LoginResult> {
      await assertTestingMode(deps.settings);
      await assertNotShutdown(repos.system);
      const now = clock.now();
      const attempt = await repos.attempts.get(TEST_LOGIN_KEY);
      if (attempt?.lockedUntil && attempt.lockedUntil > now) throw testLoginLocked(attempt.lockedUntil, now);
      const expected = await deps.settings.get('testing_password');
      if (!expected || !sameSecret(body.password, expected)) throw await failedTestLogin(now);
      await repos.attempts.clear(TEST_LOGIN_KEY);
      const pilot = await repos.pilots.byEmail(normaliseEmail(body.email));
      if (!pilot) throw notFound('No pilot is registered with that email.', { title: 'Test Login Failed' });
      const token = await db.transaction((trx) => deps.sessions.start(trx, pilot.id, pilot.forcePasswordChange));
      return { token, response: { pilot: toPilot(pilot), forcePasswordChange: pilot.forcePasswordChange } };
    },
  };
}
