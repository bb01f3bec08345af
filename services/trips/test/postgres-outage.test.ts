import { deleteStreams, fixedClock } from '@crewswap/kit';
import { eventually, findPostgresBinaries, startThrowawayPostgres, testBaseConfig } from '@crewswap/kit-testing';
import type { Trip } from '@crewswap/proto';
import { createApp } from '../src/app';
import type { Config } from '../src/config';
import { makePilot, pilotCookie, registerPilot, TODAY, tripBody } from './helpers';

jest.setTimeout(120_000);

/**
 * Stops a Postgres of this test's own (never the shared one) while pilots keep using trips, and
 * starts it again: every answer is 200 or 503 with Retry-After, never 500, and the same process
 * serves again once Postgres is back.
 */
describe('a database outage under load', () => {
  let binaries: string | undefined;
  beforeAll(async () => {
    binaries = await findPostgresBinaries();
    if (!binaries) {
      console.warn('Skipped: no Postgres server programs (initdb, pg_ctl) found; install postgresql or set POSTGRES_BIN_DIR to run the outage test.');
    }
  });

  it('answers 503 with Retry-After, never 500, while Postgres is stopped, and recovers without a restart', async () => {
    if (!binaries) return;
    const postgres = await startThrowawayPostgres(binaries);
    const config: Config = {
      ...testBaseConfig(postgres.url),
      PORT: 0,
      PROFILE_WAIT_MS: 300,
    };
    const service = await createApp(config, { clock: fixedClock(`${TODAY}T12:00:00Z`), settings: { get: async () => '4' } });
    const seen: { status: number; retryAfter?: string; error?: string }[] = [];
    let loading = true;
    const load: Promise<void>[] = [];
    try {
      const pilot = await registerPilot(service, makePilot());
      const cookies = pilotCookie(pilot.id);
      const trip = (await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody() })).json() as Trip;
      const ask = (n: number) =>
        n % 2
          ? service.app.inject({ method: 'GET', url: '/api/trips', cookies })
          : service.app.inject({ method: 'PATCH', url: `/api/trips/${trip.id}/description`, cookies, payload: { swapDescription: `try ${n}` } });
      // Four pilots' apps asking as fast as they are answered.
      for (let worker = 0; worker < 4; worker += 1) {
        load.push(
          (async () => {
            for (let n = worker; loading; n += 4) {
              const response = await ask(n);
              seen.push({ status: response.statusCode, retryAfter: response.headers['retry-after'] as string | undefined, error: response.json()?.error });
            }
          })(),
        );
      }
      await eventually(() => seen.filter((answer) => answer.status === 200).length >= 20, 30_000);

      await postgres.stop();
      const before = seen.length;
      await eventually(() => seen.slice(before).filter((answer) => answer.status === 503).length >= 20, 30_000);
      const ready = await service.app.inject('/readyz');
      expect([ready.statusCode, ready.json().checks.database]).toEqual([503, false]);

      await postgres.start();
      const restarted = seen.length;
      await eventually(() => seen.slice(restarted).filter((answer) => answer.status === 200).length >= 20, 60_000);
      expect((await service.app.inject('/readyz')).statusCode).toBe(200);
    } finally {
      loading = false;
      await Promise.all(load);
      await deleteStreams(service.runtime.bus);
      await service.close();
      await postgres.destroy();
    }

    const statuses = [...new Set(seen.map((answer) => answer.status))].sort();
    expect(statuses).toEqual([200, 503]);
    const outage = seen.filter((answer) => answer.status === 503);
    expect(new Set(outage.map((answer) => `${answer.retryAfter} ${answer.error}`))).toEqual(
      new Set(['5 The trips service is not available right now. Please try again shortly.']),
    );
  });
});
