import {
  createServiceApp,
  registerRuntimeMetrics,
  createSettingsClient,
  startRuntime,
  systemClock,
  type Clock,
  type SettingsClient,
  type SigningKeys,
} from '@crewswap/kit';
import type { Config } from './config';
import { createAirportRepository } from './data/airports';
import { createAnalyticsRepository } from './data/analytics';
import { createPilotRepository } from './data/pilots';
import { createTripRepository } from './data/trips';
import { createAirportService } from './domain/airports';
import { createAnalyticsService } from './domain/analytics';
import { createTripEvents } from './domain/events';
import { createImportTrips } from './domain/import-trips';
import { createIataList } from './domain/iata-list';
import { createKnownAirports } from './domain/known-airports';
import { createPurgeTrips, startPurgeScheduler } from './domain/purge';
import { createTripService } from './domain/trips';
import { startPilotDirectory } from './events/pilot-directory';
import { serveTripRpcs } from './events/rpc';
import { migrations } from './migrations';
import { airportRoutes } from './routes/airports';
import { analyticsRoutes } from './routes/analytics';
import { tripRoutes } from './routes/trips';
import { createSeedDemoTrips } from './seed/demo-trips';

export interface AppOptions {
  clock?: Clock;
  keys?: SigningKeys;
  settings?: Pick<SettingsClient, 'get'>;
}

export async function createApp(config: Config, options: AppOptions = {}) {
  const clock = options.clock ?? systemClock;
  const runtime = await startRuntime({ name: 'trips', schema: 'trips', migrations, config, keys: options.keys });
  try {
    const { db, bus, log } = runtime;
    const tripsRepo = createTripRepository(db);
    const pilots = createPilotRepository(db);
    const airportsRepo = createAirportRepository(db);
    const events = createTripEvents(runtime.outbox);

    let settings = options.settings;
    if (!settings) {
      const client = createSettingsClient(bus, log);
      runtime.onClose(() => client.stop());
      settings = client;
    }

    const knownAirports = createKnownAirports(airportsRepo);
    const trips = createTripService({
      db,
      trips: tripsRepo,
      pilots,
      knownAirports,
      events,
      clock,
      settings,
      profileWaitMs: config.PROFILE_WAIT_MS,
    });
    const iataList = createIataList(airportsRepo);
    const airports = createAirportService(airportsRepo, () => {
      knownAirports.invalidate();
      iataList.invalidate();
    });
    const importTrips = createImportTrips({ db, trips: tripsRepo, pilots, airports: airportsRepo, events, clock });
    const purge = createPurgeTrips({ db, trips: tripsRepo, events, clock });
    const seedDemoTrips = createSeedDemoTrips({ db, trips: tripsRepo, events, clock });

    const directory = await startPilotDirectory({ db, bus, log, pilots, trips: tripsRepo, events });
    runtime.onClose(() => directory.stop());
    const subscriptions = serveTripRpcs({ bus, log, trips: tripsRepo, knownAirports, importTrips, purge, seedDemoTrips });
    runtime.onClose(() => subscriptions.forEach((subscription) => subscription.unsubscribe()));
    if (config.PURGE_SCHEDULER_ENABLED) {
      const scheduler = startPurgeScheduler({ purge, retentionDays: config.PURGE_RETENTION_DAYS, intervalMs: config.PURGE_CHECK_INTERVAL_MS, log });
      runtime.onClose(() => scheduler.stop());
    }

    const app = createServiceApp({ name: 'trips', logger: log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);
    tripRoutes(app, { guard: runtime.guard, trips });
    airportRoutes(app, { guard: runtime.guard, airports, iataList });
    analyticsRoutes(app, { guard: runtime.guard, analytics: createAnalyticsService(createAnalyticsRepository(db)) });

    return {
      app,
      runtime,
      /** The use cases, for tests and scripts that drive them without HTTP. */
      useCases: { trips, airports, importTrips, purge, seedDemoTrips },
      repositories: { trips: tripsRepo, pilots, airports: airportsRepo },
      async close() {
        await app.close();
        await runtime.close();
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}
export type TripsApp = Awaited<ReturnType<typeof createApp>>;
