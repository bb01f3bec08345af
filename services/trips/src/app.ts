import { startService, type ServiceOptions } from '@crewswap/kit';
import type { Config } from './config';
import { createAirportRepository } from './data/airports';
import { createAnalyticsRepository } from './data/analytics';
import { createPilotRepository } from './data/pilots';
import { createTripRepository } from './data/trips';
import { createAddExcludedAirport } from './domain/add-excluded-airport';
import { createAddIataCode } from './domain/add-iata-code';
import { createAnalyticsService } from './domain/analytics';
import { createCreateTrip } from './domain/create-trip';
import { createDeleteIataCode } from './domain/delete-iata-code';
import { createDescribeTrip } from './domain/describe-trip';
import { createTripEvents } from './domain/events';
import { createImportTrips } from './domain/import-trips';
import { createIataList } from './domain/iata-list';
import { createKeepTrip } from './domain/keep-trip';
import { createKnownAirports } from './domain/known-airports';
import { createOfferTrip } from './domain/offer-trip';
import { createPurgeTrips, startPurgeScheduler } from './domain/purge';
import { createRemoveExcludedAirport } from './domain/remove-excluded-airport';
import { createRemoveTrip } from './domain/remove-trip';
import { createTripWork } from './domain/trip-work';
import { createUpdateIataCode } from './domain/update-iata-code';
import { createUpdateTrip } from './domain/update-trip';
import { startPilotDirectory } from './events/pilot-directory';
import { serveTripRpcs } from './events/rpc';
import { migrations } from './migrations';
import { airportRoutes } from './routes/airports';
import { analyticsRoutes } from './routes/analytics';
import { tripRoutes } from './routes/trips';
import { createSeedDemoTrips } from './seed/demo-trips';

export type AppOptions = ServiceOptions;

export function createApp(config: Config, options: AppOptions = {}) {
  return startService({ name: 'trips', schema: 'trips', migrations, config, options }, async (parts) => {
    const { app, runtime, clock } = parts;
    const { db, bus, log, guard } = runtime;
    const tripsRepo = createTripRepository(db);
    const pilots = createPilotRepository(db);
    const airportsRepo = createAirportRepository(db);
    const events = createTripEvents(runtime.outbox);

    const settings = parts.settings();

    const knownAirports = createKnownAirports(airportsRepo);
    const work = createTripWork({ db, trips: tripsRepo, pilots, knownAirports, events, clock, settings, profileWaitMs: config.PROFILE_WAIT_MS });
    const tripUseCases = {
      createTrip: createCreateTrip({ trips: tripsRepo, events, clock, work }),
      updateTrip: createUpdateTrip({ trips: tripsRepo, clock, work }),
      removeTrip: createRemoveTrip({ db, trips: tripsRepo, events }),
      offerTrip: createOfferTrip({ clock, work }),
      describeTrip: createDescribeTrip({ work }),
      keepTrip: createKeepTrip({ work }),
    };
    const iataList = createIataList(airportsRepo);
    const onChange = () => {
      knownAirports.invalidate();
      iataList.invalidate();
    };
    const airportUseCases = {
      addIataCode: createAddIataCode({ airports: airportsRepo, onChange }),
      updateIataCode: createUpdateIataCode({ airports: airportsRepo, onChange }),
      deleteIataCode: createDeleteIataCode({ airports: airportsRepo, onChange }),
      addExcludedAirport: createAddExcludedAirport({ airports: airportsRepo }),
      removeExcludedAirport: createRemoveExcludedAirport({ airports: airportsRepo }),
    };
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

    tripRoutes(app, { guard, trips: tripsRepo, useCases: tripUseCases });
    airportRoutes(app, { guard, airports: airportsRepo, iataList, useCases: airportUseCases });
    analyticsRoutes(app, { guard, analytics: createAnalyticsService(createAnalyticsRepository(db)) });

    return {
      /** The use cases, for tests and scripts that drive them without HTTP. */
      useCases: { ...tripUseCases, ...airportUseCases, importTrips, purge, seedDemoTrips },
      repositories: { trips: tripsRepo, pilots, airports: airportsRepo },
    };
  });
}
export type TripsApp = Awaited<ReturnType<typeof createApp>>;
