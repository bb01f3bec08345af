/**
 * Issue 51: every service with a database survives Postgres restarting. A Postgres of this test's
 * own (never the shared one) is stopped with `pg_ctl stop -m fast` while pilots and an admin keep
 * calling every service, and started again on the same port: each service (and push-sender)
 * answers a real request with 200 within 3 s of Postgres accepting connections again, in the same
 * process, and nothing in the process rejects or throws unhandled on the way.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, deleteStreams, PILOT_COOKIE, signPilotToken, type Runtime } from '@crewswap/kit';
import { eventually, findPostgresBinaries, startService, startServices, startThrowawayPostgres, testBaseConfig, TEST_KEYS, testPilot, testTrip, uniqueName } from '@crewswap/kit-testing';
import type { FastifyInstance, InjectOptions } from 'fastify';

jest.setTimeout(90_000);

const MASTER = { email: 'restart-master@crewswap.test', password: 'restart-master-1' };
/** How soon after Postgres accepts connections again every service must answer (the bound). */
const BACK_WITHIN_MS = 3_000;
const OUTAGE_MS = 3_000;

interface Answer {
  at: number;
  status: number;
}

describe('a Postgres restart under load', () => {
  let binaries: string | undefined;
  beforeAll(async () => {
    binaries = await findPostgresBinaries();
    if (!binaries) console.warn('Skipped: no Postgres server programs (initdb, pg_ctl) found; install postgresql or set POSTGRES_BIN_DIR to run the restart test.');
  });

  it('every service answers 200 within 3 s of Postgres being back, in the same process, with nothing unhandled', async () => {
    if (!binaries) return;
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown) => unhandled.push(error);
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
    const postgres = await startThrowawayPostgres(binaries);
    const base = { ...testBaseConfig(postgres.url, uniqueName('dbrestart')), PORT: 0 };
    const closers: (() => Promise<void>)[] = [];
    let loading = true;
    const load: Promise<void>[] = [];
    let bus: Runtime['bus'] | undefined;
    try {
      const admin = await startService('admin', base, { env: { ADMIN_EMAIL: MASTER.email, ADMIN_PASSWORD: MASTER.password } });
      closers.push(() => admin.close());
      bus = admin.runtime.bus;
      const swaps = await startService('swaps', base);
      closers.push(() => swaps.close());
      const others = await startServices(['auth', 'trips', 'notifications', 'roster-ingest', 'links'], base, {
        env: { 'roster-ingest': { SMTP_INGEST_ENABLED: 'false' } },
      });
      for (const service of others) closers.push(() => service.close());
      const pushSender = await startService('push-sender', base);
      closers.push(() => pushSender.close());
      const byName = Object.fromEntries(others.map((service) => [service.name, service.app])) as Record<(typeof others)[number]['name'], FastifyInstance>;

      const login = await admin.app.inject({ method: 'POST', url: '/api/admin/login', payload: MASTER });
      expect(login.statusCode).toBe(200);
      const adminCookies = { [ADMIN_COOKIE]: login.cookies.find((cookie) => cookie.name === ADMIN_COOKIE)!.value };
      const pilot = testPilot();
      const pilotCookies = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: pilot.id }) };
      // Find swaps on a trip of the pilot's, with other pilots' offers beside it in swaps' offer index.
      const stamp = { version: 1, at: new Date() };
      const offerers = [testPilot(), testPilot()];
      const trip = testTrip({ pilotId: pilot.id, startDate: '2026-12-10', endDate: '2026-12-12' });
      const offers = offerers.map((offerer) => testTrip({ pilotId: offerer.id, startDate: '2026-12-11', endDate: '2026-12-13', isSwappable: true }));
      await swaps.readModel.applyPilotChanges(swaps.runtime.db, [pilot, ...offerers].map((one) => ({ kind: 'profile' as const, pilot: one, stamp })));
      await swaps.readModel.applyTripChanges(swaps.runtime.db, [trip, ...offers].map((one) => ({ kind: 'trip' as const, trip: one, stamp })));
      await swaps.offers.catchUp();

      // One request each that reads the service's own tables.
      const calls: Record<string, { app: FastifyInstance; request: InjectOptions }> = {
        admin: { app: admin.app, request: { url: '/api/admin/admins', cookies: adminCookies } },
        auth: { app: byName.auth, request: { url: '/api/check-deleted-pilot/123456' } },
        trips: { app: byName.trips, request: { url: '/api/trips', cookies: pilotCookies } },
        swaps: { app: swaps.app, request: { url: '/api/swaps/proposals', cookies: pilotCookies } },
        'swaps (Find swaps)': { app: swaps.app, request: { url: `/api/trips/${trip.id}/matches`, cookies: pilotCookies } },
        notifications: { app: byName.notifications, request: { url: '/api/notifications/preferences', cookies: pilotCookies } },
        'roster-ingest': { app: byName['roster-ingest'], request: { url: '/api/roster/upload-address', cookies: pilotCookies } },
        links: { app: byName.links, request: { url: '/api/crew-links', cookies: pilotCookies } },
        // push-sender serves no API: its readiness is its database check.
        'push-sender': { app: pushSender.app, request: { url: '/readyz' } },
      };
      const seen: Record<string, Answer[]> = Object.fromEntries(Object.keys(calls).map((name) => [name, []]));
      for (const [name, { app, request }] of Object.entries(calls)) {
        load.push(
          (async () => {
            while (loading) {
              const response = await app.inject({ method: 'GET', ...request });
              seen[name]!.push({ at: Date.now(), status: response.statusCode });
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
          })(),
        );
      }
      const answeredSince = (name: string, since: number, status: number) => seen[name]!.some((answer) => answer.at >= since && answer.status === status);
      await eventually(() => Object.keys(calls).every((name) => answeredSince(name, 0, 200)), 20_000);

      await postgres.stop();
      const stopped = Date.now();
      await eventually(() => Object.keys(calls).every((name) => answeredSince(name, stopped, 503)), 20_000);
      // Long enough for every listener and relay to have tried, and failed, to reconnect.
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));

      // pg_ctl start -w returns once Postgres accepts connections.
      await postgres.start();
      const back = Date.now();
      await eventually(() => Object.keys(calls).every((name) => answeredSince(name, back, 200)), 20_000).catch(() => undefined);
      const late = Object.keys(calls).map((name) => {
        const first = seen[name]!.find((answer) => answer.at >= back && answer.status === 200);
        return { name, msToFirst200: first ? first.at - back : Infinity };
      });
      expect(late.filter(({ msToFirst200 }) => msToFirst200 > BACK_WITHIN_MS)).toEqual([]);
      const statuses = [...new Set(Object.values(seen).flatMap((answers) => answers.map((answer) => answer.status)))].sort();
      expect(statuses).toEqual([200, 503]);
    } finally {
      loading = false;
      await Promise.all(load);
      if (bus) await deleteStreams(bus).catch(() => undefined);
      for (const close of closers.reverse()) await close().catch(() => undefined);
      await postgres.destroy();
      process.off('unhandledRejection', onUnhandled);
      process.off('uncaughtException', onUnhandled);
    }
    expect(unhandled.map(String)).toEqual([]);
  });
});
