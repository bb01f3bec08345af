/**
 * A NATS outage under load, with a NATS of this test's own (never the shared one): pilots logged
 * in before it keep reading and writing their trips for the outage grace (60 s by default; this
 * outage lasts 20 s), a pilot who logged out before it stays logged out throughout, and every
 * trip acknowledged during it is kept and announced once NATS is back.
 */
import { addDays, SETTING_DEFAULTS, type Trip } from '@crewswap/proto';
import { deleteStreams, fixedClock, PILOT_COOKIE } from '@crewswap/kit';
import { createTestDatabase, eventually, startService, startThrowawayNats, testBaseConfig } from '@crewswap/kit-testing';
import { createApp } from '../src/app';
import { TODAY, tripBody } from './helpers';

jest.setTimeout(180_000);

const OUTAGE_MS = 20_000;

describe('a NATS outage under load', () => {
  it("pilots' reads and writes keep succeeding within the grace, a logout made before it stays refused, and no acknowledged write is lost", async () => {
    const database = await createTestDatabase();
    const nats = await startThrowawayNats();
    const clock = fixedClock(`${TODAY}T12:00:00Z`);
    const base = { ...testBaseConfig(database.url), NATS_URL: nats.url, PORT: 0 };
    const settings = { get: async (key: string) => ({ ...SETTING_DEFAULTS, email_verification_enabled: 'false' })[key as keyof typeof SETTING_DEFAULTS] };
    const auth = await startService('auth', base, { options: { clock, settings } });
    const trips = await createApp({ ...base, PROFILE_WAIT_MS: 3000, MASTER_CALENDAR_CACHE_MS: 0 }, { clock, settings: { get: async () => '4' } });
    const seen: { pilot: 'in' | 'out'; at: number; status: number; error?: string }[] = [];
    const created: string[] = [];
    let loading = true;
    const load: Promise<void>[] = [];
    try {
      const signIn = async (employeeId: string) => {
        const registered = await auth.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: {
            firstName: 'Amy',
            lastName: 'Stone',
            employeeId,
            phone: '+447700900123',
            emailPrefix: `outage${employeeId}`,
            rank: 'CP',
            fleet: 'A350',
            base: 'LHR',
            apic: true,
            password: 'secret1',
            confirmPassword: 'secret1',
          },
        });
        expect(registered.statusCode).toBe(201);
        const login = await auth.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: `outage${employeeId}@fly.virgin.com`, password: 'secret1' } });
        expect(login.statusCode).toBe(200);
        return { [PILOT_COOKIE]: login.cookies.find((cookie) => cookie.name === PILOT_COOKIE)!.value };
      };
      const pilot = await signIn('200001');
      const gone = await signIn('200002');
      // The second pilot logs out before the outage, and trips has heard it.
      expect((await auth.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: gone })).statusCode).toBe(200);
      await eventually(async () => (await trips.app.inject({ method: 'GET', url: '/api/trips', cookies: gone })).statusCode === 401, 10_000);
      // Trips knows the pilot once auth's registration event arrived.
      await eventually(async () => (await trips.app.inject({ method: 'GET', url: '/api/trips', cookies: pilot })).statusCode === 200, 10_000);

      let day = 1;
      const record = (who: 'in' | 'out', response: { statusCode: number; json(): unknown }) => {
        let error: string | undefined;
        try {
          error = (response.json() as { error?: string })?.error;
        } catch {
          // Not JSON: the status says enough.
        }
        seen.push({ pilot: who, at: Date.now(), status: response.statusCode, ...(error ? { error } : {}) });
      };
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // A pilot adding a trip a day, another reading, and the logged-out pilot's app still trying.
      load.push(
        (async () => {
          while (loading && day < 300) {
            const date = addDays(TODAY, day++);
            const response = await trips.app.inject({ method: 'POST', url: '/api/trips', cookies: pilot, payload: tripBody({ startDate: date, endDate: date }) });
            record('in', response);
            if (response.statusCode === 201) created.push((response.json() as Trip).id);
            await pause(50);
          }
        })(),
        (async () => {
          while (loading) {
            record('in', await trips.app.inject({ method: 'GET', url: '/api/trips', cookies: pilot }));
            await pause(20);
          }
        })(),
        (async () => {
          while (loading) {
            record('out', await trips.app.inject({ method: 'GET', url: '/api/trips', cookies: gone }));
            await pause(50);
          }
        })(),
      );
      await eventually(() => created.length >= 5, 30_000);

      await nats.stop();
      const stoppedAt = Date.now();
      await pause(OUTAGE_MS);
      const writtenDuringOutage = created.length;
      await nats.start();
      const startedAt = Date.now();
      await eventually(() => trips.runtime.guard.following(), 30_000);
      await pause(1000);
      loading = false;
      await Promise.all(load);

      const during = seen.filter((answer) => answer.at >= stoppedAt && answer.at <= startedAt);
      expect(during.filter((answer) => answer.pilot === 'in').length).toBeGreaterThan(50);
      expect(writtenDuringOutage).toBeGreaterThan(5);
      // Within the grace: every read and write of the signed-in pilot succeeded, before, during and after.
      expect(seen.filter((answer) => answer.pilot === 'in' && answer.status >= 300)).toEqual([]);
      // Refused throughout, never served and never a 503.
      expect(new Set(seen.filter((answer) => answer.pilot === 'out').map((answer) => `${answer.status} ${answer.error}`))).toEqual(new Set(['401 Session expired']));

      // Every acknowledged trip is kept, and its event went out once NATS was back.
      const listed = (await trips.app.inject({ method: 'GET', url: '/api/trips', cookies: pilot })).json() as Trip[];
      expect(new Set(listed.map((trip) => trip.id))).toEqual(new Set(created));
      await eventually(async () => {
        const row = await trips.runtime.db('outbox').whereNull('published_at').count({ n: '*' }).first();
        return Number(row?.n) === 0;
      }, 30_000);
    } finally {
      loading = false;
      await Promise.all(load);
      await deleteStreams(trips.runtime.bus).catch(() => undefined);
      await trips.close();
      await auth.close();
      await nats.stop().catch(() => undefined);
      await database.drop();
    }
  });
});
