import { forbidden, HttpError, notFound, type SettingsClient } from '@crewswap/kit';
import { MAX_LOGIN_ATTEMPTS, type TestLoginBody } from '@crewswap/proto';
import { toPilot } from '../data/pilots';
import { normaliseEmail, type AuthDeps } from './deps';
import { assertNotShutdown, type LoginResult } from './login';
import { sameSecret } from './passwords';
import type { PilotSessions } from './pilot-sessions';

/**
 * Wrong testing passwords are counted per account tried and per client address, under keys no
 * email can be, so nobody can lock test login for everyone: 5 wrong in a row for one pilot lock
 * test login as that pilot for 15 minutes (the right password included), as 5 wrong passwords
 * stop a pilot's login; many pilots share an address (a crew room, an airline proxy), so an
 * address is locked only after ADDRESS_ATTEMPTS wrong in a row, whichever pilots they named.
 */
const accountKey = (email: string) => `test-login:account:${email}`.slice(0, 200);
const addressKey = (address: string) => `test-login:address:${address}`.slice(0, 200);
const ADDRESS_ATTEMPTS = 20;
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

  async function failedTestLogin(keys: { account: string; address: string }, now: Date): Promise<HttpError> {
    return db.transaction(async (trx) => {
      const account = await repos.attempts.recordFailure(keys.account, now, trx);
      const address = await repos.attempts.recordFailure(keys.address, now, trx);
      const remaining = Math.min(MAX_LOGIN_ATTEMPTS - account.failedCount, ADDRESS_ATTEMPTS - address.failedCount);
      if (remaining > 0) return forbidden('Incorrect password.', { title: 'Access Denied', extra: { remainingAttempts: remaining } });
      const until = new Date(now.getTime() + TEST_LOGIN_LOCK_MS);
      if (account.failedCount >= MAX_LOGIN_ATTEMPTS) await repos.attempts.lock(keys.account, until, trx);
      if (address.failedCount >= ADDRESS_ATTEMPTS) await repos.attempts.lock(keys.address, until, trx);
      return testLoginLocked(until, now);
    });
  }

  return {
    /** `address` is the client's (the gateway passes it on in X-Forwarded-For). */
    async execute(body: TestLoginBody, address: string): Promise<LoginResult> {
      await assertTestingMode(deps.settings);
      await assertNotShutdown(repos.system);
      const now = clock.now();
      const email = normaliseEmail(body.email);
      const keys = { account: accountKey(email), address: addressKey(address) };
      for (const key of [keys.account, keys.address]) {
        const attempt = await repos.attempts.get(key);
        if (attempt?.lockedUntil && attempt.lockedUntil > now) throw testLoginLocked(attempt.lockedUntil, now);
      }
      const expected = await deps.settings.get('testing_password');
      if (!expected || !sameSecret(body.password, expected)) throw await failedTestLogin(keys, now);
      await repos.attempts.clear(keys.account);
      await repos.attempts.clear(keys.address);
      const pilot = await repos.pilots.byEmail(email);
      if (!pilot) throw notFound('No pilot is registered with that email.', { title: 'Test Login Failed' });
      const token = await db.transaction((trx) => deps.sessions.start(trx, pilot.id, pilot.forcePasswordChange));
      return { token, response: { pilot: toPilot(pilot), forcePasswordChange: pilot.forcePasswordChange } };
    },
  };
}
