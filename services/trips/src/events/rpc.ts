import { serveRpc, type Bus } from '@crewswap/kit';
import {
  ImportTripsRequest,
  KnownAirportsRequest,
  PurgeTripsRequest,
  RPC,
  SeedDemoTripsRequest,
  TripCountsRequest,
} from '@crewswap/proto';
import type { Subscription } from 'nats';
import type { Logger } from 'pino';
import type { TripRepository } from '../data/trips';
import type { createImportTrips } from '../domain/import-trips';
import type { KnownAirports } from '../domain/known-airports';
import type { PurgeTrips } from '../domain/purge';
import type { createSeedDemoTrips } from '../seed/demo-trips';

/** What other services ask trips over request/reply; each handler only calls its use case. */
export function serveTripRpcs(deps: {
  bus: Bus;
  log: Logger;
  trips: TripRepository;
  knownAirports: KnownAirports;
  importTrips: ReturnType<typeof createImportTrips>;
  purge: PurgeTrips;
  seedDemoTrips: ReturnType<typeof createSeedDemoTrips>;
}): Subscription[] {
  const { bus, log } = deps;
  return [
    serveRpc({ bus, log, subject: RPC.importTrips, request: ImportTripsRequest, handle: (input) => deps.importTrips.execute(input) }),
    serveRpc({ bus, log, subject: RPC.purgeTrips, request: PurgeTripsRequest, handle: (input) => deps.purge.execute(input) }),
    serveRpc({ bus, log, subject: RPC.purgePreview, request: PurgeTripsRequest, handle: (input) => deps.purge.preview(input) }),
    serveRpc({
      bus,
      log,
      subject: RPC.tripCounts,
      request: TripCountsRequest,
      handle: async (input) => ({ counts: await deps.trips.countsByPilot(input.pilotIds) }),
    }),
    serveRpc({
      bus,
      log,
      subject: RPC.knownAirports,
      request: KnownAirportsRequest,
      handle: async (input) => ({ known: [...(await deps.knownAirports.known(input.codes))] }),
    }),
    serveRpc({ bus, log, subject: RPC.seedDemoTrips, request: SeedDemoTripsRequest, handle: (input) => deps.seedDemoTrips.execute(input) }),
  ];
}
