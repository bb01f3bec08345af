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
import { createCrewRepository } from './data/crew';
import { createStatsRepository } from './data/stats';
import { createWhatsappGroupRepository } from './data/whatsapp-groups';
import { createGetCrossoverTrips } from './domain/crew/crossover-trips';
import { createGetMasterCalendar } from './domain/crew/master-calendar';
import { createGetPilotStats } from './domain/crew/pilot-stats';
import { createSearchUsualRequests } from './domain/crew/search-usual-requests';
import { createGetTripCrew, createListTripsWithCrew } from './domain/crew/trip-crew';
import {
  createClaimWhatsappGroup,
  createCreateWhatsappGroup,
  createDeleteWhatsappGroup,
  createGetWhatsappGroup,
  createSetWhatsappGroupLink,
} from './domain/whatsapp/use-cases';
import { crewRoutes } from './routes/crew';
import { whatsappGroupRoutes } from './routes/whatsapp-groups';
import { createPilotRepository } from './data/pilots';
import { createTripRepository } from './data/trips';
import { createAirportService } from './domain/airports';
import { createAnalyticsService } from './domain/analytics';
import { createTripEvents } from './domain/events';
import { createImportTrips } from './domain/import-trips';
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
    const crew = createCrewRepository(db);
    const groups = createWhatsappGroupRepository(db);

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
    const airports = createAirportService(airportsRepo, () => knownAirports.invalidate());
    const importTrips = createImportTrips({ db, trips: tripsRepo, pilots, airports: airportsRepo, events, clock });
    const purge = createPurgeTrips({ db, trips: tripsRepo, groups, events, clock });
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
    tripRoutes(app, { guard: runtime.guard, trips, listTripsWithCrew: createListTripsWithCrew({ trips: tripsRepo, crew }) });
    crewRoutes(app, {
      guard: runtime.guard,
      useCases: {
        tripCrew: createGetTripCrew({ trips: tripsRepo, crew }),
        masterCalendar: createGetMasterCalendar({ pilots, crew, clock, cacheMs: config.MASTER_CALENDAR_CACHE_MS ?? 15_000 }),
        crossoverTrips: createGetCrossoverTrips({ pilots, crew, clock }),
        searchUsualRequests: createSearchUsualRequests({ pilots, crew, knownAirports, clock }),
        pilotStats: createGetPilotStats({ stats: createStatsRepository(db), groups, clock }),
      },
    });
    const groupDeps = { db, trips: tripsRepo, crew, groups, pilots, outbox: runtime.outbox, clock };
    whatsappGroupRoutes(app, {
      guard: runtime.guard,
      groups: {
        get: createGetWhatsappGroup(groupDeps),
        create: createCreateWhatsappGroup(groupDeps),
        setLink: createSetWhatsappGroupLink(groupDeps),
        remove: createDeleteWhatsappGroup(groupDeps),
        claim: createClaimWhatsappGroup(groupDeps),
      },
    });
    airportRoutes(app, { guard: runtime.guard, airports });
    analyticsRoutes(app, { guard: runtime.guard, analytics: createAnalyticsService(createAnalyticsRepository(db)) });

    return {
      app,
      runtime,
      /** The use cases, for tests and scripts that drive them without HTTP. */
      useCases: { trips, airports, importTrips, purge, seedDemoTrips },
      repositories: { trips: tripsRepo, pilots, airports: airportsRepo, crew, groups },
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
