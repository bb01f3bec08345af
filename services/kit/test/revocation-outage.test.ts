import { randomUUID } from 'node:crypto';
import { SUBJECTS } from '@crewswap/proto';
import { createServiceApp, PILOT_COOKIE, SESSIONS_UNCHECKABLE_MESSAGE, signPilotToken, startRuntime, type Runtime } from '../src';
import { createTestDatabase, eventually, signedElsewhere, startThrowawayNats, testBaseConfig, TEST_KEYS } from '@crewswap/kit-testing';

jest.setTimeout(90_000);

describe('logout while NATS is down', () => {
  it('a service that can reach neither NATS nor auth serves known sessions for its grace, then refuses them with 503, and a session ended meanwhile never works again', async () => {
    const database = await createTestDatabase();
    const nats = await startThrowawayNats();
    const runtimes: Runtime[] = [];
    try {
      // A short grace, so the test sees it end; production's default is 60 s.
      const config = { ...testBaseConfig(database.url), NATS_URL: nats.url, SESSION_OUTAGE_GRACE_SECONDS: 3 };
      // auth ends sessions (through its outbox); trips only follows the revocations.
      const auth = await startRuntime({ name: 'auth', schema: 'auth_test', migrations: {}, config });
      runtimes.push(auth);
      const trips = await startRuntime({ name: 'trips', schema: 'trips_test', migrations: {}, config });
      runtimes.push(trips);
      const app = createServiceApp({ name: 'trips', logger: trips.log, readiness: trips.readiness });
      app.get('/api/trips', async (request) => trips.guard.pilot(request));

      const pilotId = randomUUID();
      const loggedOut = { sessionId: randomUUID(), pilotId };
      const other = { sessionId: randomUUID(), pilotId: randomUUID() };
      const ask = (session: typeof other) =>
        app.inject({ method: 'GET', url: '/api/trips', cookies: { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, session) } });
      expect((await ask(loggedOut)).statusCode).toBe(200);

      await nats.stop();
      const lostAt = Date.now();
      // Within the grace the session is served with the revocations known before the outage.
      expect((await ask(other)).statusCode).toBe(200);
      // A pilot who logs in during the outage (auth signs it; nobody can announce it) cannot be
      // vouched for while auth cannot be asked over HTTP either (nobody answers its AUTH_URL here):
      // refused with 503, as a token nobody issued is; only NATS's return tells them apart.
      const loggedInDuring = { sessionId: randomUUID(), pilotId: randomUUID() };
      const duringCookie = await signedElsewhere(loggedInDuring);
      const forgedCookie = await signedElsewhere({ sessionId: randomUUID(), pilotId: randomUUID() });
      const askWith = (cookie: string) => app.inject({ method: 'GET', url: '/api/trips', cookies: { [PILOT_COOKIE]: cookie } });
      // Once this process has noticed the outage (before that, it still asks auth, and waits for the answer).
      await eventually(async () => !trips.guard.following(), 10_000);
      expect((await askWith(duringCookie)).statusCode).toBe(503);
      expect((await askWith(forgedCookie)).statusCode).toBe(503);
      const refused = await eventually(async () => {
        const response = await ask(other);
        return response.statusCode === 503 ? response : undefined;
      }, 10_000);
      expect(refused.json()).toEqual({ error: SESSIONS_UNCHECKABLE_MESSAGE });
      expect(refused.headers['retry-after']).toBe('5');
      expect(Date.now() - lostAt).toBeGreaterThanOrEqual(2_900);
      const ready = await app.inject('/readyz');
      expect(ready.json().checks).toMatchObject({ database: true, revocations: false, sessions: false });

      // The pilot logs out during the outage: auth's outbox holds the revocation.
      await auth.db.transaction((trx) => auth.outbox.write(trx, SUBJECTS.sessionRevoked, { ...loggedOut, reason: 'logout' }));
      const statuses = new Set<number>();
      let watching = true;
      const watch = (async () => {
        while (watching) {
          statuses.add((await ask(loggedOut)).statusCode);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      // Auth's outbox holds the start of the session made during the outage.
      await auth.db.transaction((trx) => auth.outbox.write(trx, SUBJECTS.sessionStarted, loggedInDuring));
      await nats.start();
      await eventually(async () => (await ask(other)).statusCode === 200, 30_000);
      expect((await askWith(duringCookie)).statusCode).toBe(200);
      // Nobody announced the other: asked about once NATS is back, it is not served.
      expect((await askWith(forgedCookie)).statusCode).not.toBe(200);
      await eventually(async () => (await ask(loggedOut)).statusCode === 401, 5_000);
      watching = false;
      await watch;
      // Refused while unchecked, then ended: never served.
      expect([...statuses].filter((status) => status !== 503 && status !== 401)).toEqual([]);
      await app.close();
    } finally {
      for (const runtime of runtimes.reverse()) await runtime.close();
      await nats.stop().catch(() => undefined);
      await database.drop();
    }
  });
});
