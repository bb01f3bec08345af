/**
 * Issue 51: swaps survives Postgres stopping and restarting. Find swaps answers again within 3 s of
 * Postgres's return and the offer index holds the offers again, in the same process; the start-up
 * read of admin's settings, which nobody awaits, never rejects when it cannot write.
 */
import { randomUUID } from 'node:crypto';
import { createDb, deleteStreams, fixedClock, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { eventually, findPostgresBinaries, startThrowawayPostgres, TEST_KEYS, testBaseConfig, uniqueName } from '@crewswap/kit-testing';
import { createApp } from '../src/app';
import type { Config } from '../src/config';
import type { PilotChange, TripChange } from '../src/data/read-model';
import { readSettingsFromAdmin } from '../src/events/replay';
import { makePilot, makeTrip, startHarness, TODAY } from './helpers';

jest.setTimeout(60_000);

const BACK_WITHIN_MS = 3_000;

/** A port on which nothing listens: connecting is refused at once, as while Postgres is down. */
async function closedPort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('swaps and a database restart', () => {
  it("the start-up read of admin's settings resolves when its answer cannot be written (the database away)", async () => {
    const h = await startHarness({ adminSettings: { swap_search_days: '6' } });
    const away = createDb(`postgres://postgres@127.0.0.1:${await closedPort()}/nothing`, 'swaps', undefined, h.service.runtime.log);
    try {
      const read = readSettingsFromAdmin({ bus: h.service.runtime.bus, log: h.service.runtime.log, readModel: h.service.readModel, clock: h.clock, settingsTimeoutMs: 2000, ex: away });
      await expect(read).resolves.toBe(true);
    } finally {
      await away.destroy();
      await h.close();
    }
  });

  it('Find swaps answers 200 within 3 s of Postgres being back, and the offer index holds the offers again', async () => {
    const binaries = await findPostgresBinaries();
    if (!binaries) {
      console.warn('Skipped: no Postgres server programs (initdb, pg_ctl) found; install postgresql or set POSTGRES_BIN_DIR to run the restart test.');
      return;
    }
    const postgres = await startThrowawayPostgres(binaries);
    const config: Config = { ...testBaseConfig(postgres.url, uniqueName('t')), PORT: 0, SETTINGS_RPC_TIMEOUT_MS: 0, TRIPS_CATCH_UP_MS: 1000, OFFER_ALERT_MAX_AGE_MINUTES: 1440, ROSTER_CACHE_PILOTS: 4000, APP_ORIGIN: 'http://localhost:8080', PRODUCT_NAME: 'CrewSwap' };
    const service = await createApp(config, { clock: fixedClock(`${TODAY}T12:00:00Z`) });
    const answers: { at: number; status: number; fromMemory: boolean }[] = [];
    let asking = true;
    let load: Promise<void> | undefined;
    try {
      const stamp = { version: 1, at: new Date('2026-10-01T00:00:00Z') };
      const asker = makePilot();
      const offerers = [makePilot(), makePilot(), makePilot()];
      const trip = makeTrip(asker, { startDate: '2026-12-01' });
      const offers = offerers.map((pilot) => makeTrip(pilot, { startDate: '2026-12-02', isSwappable: true }));
      const { db } = service.runtime;
      await service.readModel.applyPilotChanges(db, [asker, ...offerers].map((pilot): PilotChange => ({ kind: 'profile', pilot, stamp })));
      await service.readModel.applyTripChanges(db, [trip, ...offers].map((one): TripChange => ({ kind: 'trip', trip: one, stamp })));
      await service.offers.catchUp();
      expect(service.offers.status()).toEqual({ offers: 3, ready: true });

      const session = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: asker.id }) };
      load = (async () => {
        while (asking) {
          const response = await service.app.inject({ url: `/api/trips/${trip.id}/matches`, cookies: session });
          answers.push({ at: Date.now(), status: response.statusCode, fromMemory: service.offers.status().ready });
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await eventually(() => answers.some((answer) => answer.status === 200), 5000);

      await postgres.stop();
      const stopped = Date.now();
      await eventually(() => answers.some((answer) => answer.at > stopped && answer.status === 503), 10_000);
      // Long enough for the listener to have failed to listen again more than once.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(service.offers.status().ready).toBe(false);

      await postgres.start();
      const back = Date.now();
      await eventually(() => answers.some((answer) => answer.at >= back && answer.status === 200), 10_000);
      const first200 = answers.find((answer) => answer.at >= back && answer.status === 200)!;
      expect(first200.at - back).toBeLessThanOrEqual(BACK_WITHIN_MS);
      await eventually(() => service.offers.status().ready, BACK_WITHIN_MS);
      expect(service.offers.status()).toEqual({ offers: 3, ready: true });
      expect([...new Set(answers.map((answer) => answer.status))].sort()).toEqual([200, 503]);
    } finally {
      asking = false;
      await load;
      await deleteStreams(service.runtime.bus);
      await service.close();
      await postgres.destroy();
    }
  });
});
