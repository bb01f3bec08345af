import { followSystemState, startService, type ServiceOptions } from '@crewswap/kit';
import type { Config } from './config';
import { createAirportRepository } from './data/airports';
import { createAnalyticsRepository } from './data/analytics';
import { createCalendarFeedRepository } from './data/calendar-feeds';
import { createCrewRepository } from './data/crew';
import { createStatsRepository } from './data/stats';
import { createWhatsappGroupRepository } from './data/whatsapp-groups';
import { createPilotRepository } from './data/pilots';
import { createTripRepository } from './data/trips';
import { createAddExcludedAirport } from './domain/add-excluded-airport';
import { createAddIataCode } from './domain/add-iata-code';
import { createAnalyticsService } from './domain/analytics';
import { createCalendarFeed } from './domain/calendar/feed';
import { createCreateTrip } from './domain/create-trip';
import { createListTripsWithCrew } from './domain/crew/trip-crew';
import { createCrewUseCases } from './domain/crew/use-cases';
import { createDeleteIataCode } from './domain/delete-iata-code';
import { createDescribeTrip } from './domain/describe-trip';
import { createTripEvents } from './domain/events';
import { createImportTrips } from './domain/import-trips';
import { createIataList } from './domain/iata-list';
import { createKeepTrip } from './domain/keep-trip';
import { createKnownAirports } from './domain/known-airports';
import { createOfferTrip } from './domain/offer-trip';
import { createPurgeTrips } from './domain/purge';
import { createRemoveExcludedAirport } from './domain/remove-excluded-airport';
import { createRemoveTrip } from './domain/remove-trip';
import { createTripWork } from './domain/trip-work';
import { createUpdateIataCode } from './domain/update-iata-code';
import { createUpdateTrip } from './domain/update-trip';
import { createWhatsappGroupUseCases } from './domain/whatsapp/use-cases';
import { startPilotDirectory } from './events/pilot-directory';
import { startAgreedSwaps } from './events/agreed-swaps';
import { createEndAgreedSwap, createWithdrawAgreedOffers } from './domain/withdraw-agreed-offers';
import { createAgreedSwapRepository } from './data/agreed-swaps';
import { createMoveSwappedTrips } from './domain/move-swapped-trips';
import { serveTripRpcs } from './events/rpc';
import { migrations } from './migrations';
import { airportRoutes } from './routes/airports';
import { analyticsRoutes } from './routes/analytics';
import { calendarFeedRoutes } from './routes/calendar-feed';
import { crewRoutes } from './routes/crew';
import { tripRoutes } from './routes/trips';
import { whatsappGroupRoutes } from './routes/whatsapp-groups';
import { createSeedDemoTrips } from './seed/demo-trips';
import { followDutyAllowances } from './domain/duty-allowances';
import { createGetPilotMonth } from './domain/pilot-month';
import { pilotMonthRoutes } from './routes/pilot-month';

export type AppOptions = ServiceOptions;

export function createApp(config: Config, options: AppOptions = {}) {
  return startService({ name: 'trips', schema: 'trips', migrations, config, options }, async (parts) => {
    const { app, runtime, clock } = parts;
    const { db, bus, log, guard } = runtime;
    // Trip values are derived with admin's allowances (issue 55), followed once settings exist below.
    const tripsRepo = createTripRepository(db, () => dutyAllowances.current());
    const pilots = createPilotRepository(db);
    const airportsRepo = createAirportRepository(db);
    const events = createTripEvents(runtime.outbox);
    const crew = createCrewRepository(db);
    const groups = createWhatsappGroupRepository(db);
    const feeds = createCalendarFeedRepository(db);

    const settings = parts.settings();
    const dutyAllowances = followDutyAllowances(settings);
    runtime.onClose(() => dutyAllowances.stop());

    const knownAirports = createKnownAirports(airportsRepo);
    const work = createTripWork({ db, trips: tripsRepo, pilots, knownAirports, events, clock, settings, profileWaitMs: config.PROFILE_WAIT_MS });
    const tripUseCases = {
      createTrip: createCreateTrip({ trips: tripsRepo, events, clock, work }),
      updateTrip: createUpdateTrip({ trips: tripsRepo, clock, work }),
      removeTrip: createRemoveTrip({ db, trips: tripsRepo, events }),
      offerTrip: createOfferTrip({ clock, work }),
      describeTrip: createDescribeTrip({ work }),
      keepTrip: createKeepTrip({ work }),
      listTripsWithCrew: createListTripsWithCrew({ trips: tripsRepo, crew }),
    };
    const crewUseCases = createCrewUseCases({
      trips: tripsRepo,
      pilots,
      crew,
      stats: createStatsRepository(db),
      groups,
      knownAirports,
      clock,
      cacheMs: config.MASTER_CALENDAR_CACHE_MS ?? 15_000,
    });
    const groupUseCases = createWhatsappGroupUseCases({ db, trips: tripsRepo, crew, groups, pilots, outbox: runtime.outbox, clock });
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
    const importTrips = createImportTrips({ db, trips: tripsRepo, pilots, airports: airportsRepo, knownAirports, events, clock });
    const purge = createPurgeTrips({ db, trips: tripsRepo, groups, events, clock });
    const seedDemoTrips = createSeedDemoTrips({ db, trips: tripsRepo, events, clock });

    const agreedSwapsRepo = createAgreedSwapRepository(db);
    const feed = createCalendarFeed({
      feeds,
      trips: tripsRepo,
      clock,
      origin: config.APP_ORIGIN ?? 'http://localhost:8080',
      product: config.PRODUCT_NAME ?? 'CrewSwap',
    });

    const directory = await startPilotDirectory({ db, bus, log, pilots, trips: tripsRepo, feeds, events });
    runtime.onClose(() => directory.stop());
    const agreedSwaps = await startAgreedSwaps({
      db,
      bus,
      log,
      withdraw: createWithdrawAgreedOffers({ trips: tripsRepo, agreedSwaps: agreedSwapsRepo, events }),
      end: createEndAgreedSwap({ agreedSwaps: agreedSwapsRepo }),
      move: createMoveSwappedTrips({ agreedSwaps: agreedSwapsRepo, events, log }),
    });
    runtime.onClose(() => agreedSwaps.stop());
    const subscriptions = serveTripRpcs({ bus, log, trips: tripsRepo, knownAirports, importTrips, purge, seedDemoTrips });
    runtime.onClose(() => subscriptions.forEach((subscription) => subscription.unsubscribe()));
    const system = await followSystemState({ bus, log });
    runtime.onClose(() => system.stop());

    tripRoutes(app, { guard, trips: tripsRepo, useCases: tripUseCases });
    crewRoutes(app, { guard, useCases: crewUseCases });
    pilotMonthRoutes(app, { guard, pilotMonth: createGetPilotMonth({ trips: tripsRepo, allowances: () => dutyAllowances.current() }) });
    whatsappGroupRoutes(app, { guard, groups: groupUseCases });
    airportRoutes(app, { guard, airports: airportsRepo, iataList, useCases: airportUseCases });
    analyticsRoutes(app, { guard, analytics: createAnalyticsService(createAnalyticsRepository(db)) });
    calendarFeedRoutes(app, { guard, feed, system });

    return {
      /** The use cases, for tests and scripts that drive them without HTTP. */
      useCases: { ...tripUseCases, ...airportUseCases, importTrips, purge, seedDemoTrips, feed },
      repositories: { trips: tripsRepo, pilots, airports: airportsRepo, crew, groups, feeds },
    };
  });
}
export type TripsApp = Awaited<ReturnType<typeof createApp>>;
