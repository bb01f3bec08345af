import { badRequest, notFound, unavailable, type Clock, type Db, type SettingsClient, type Trx } from '@crewswap/kit';
import { HOME_BASES_ONLY_MESSAGE, isHomeBasesOnly, swapWindowDays, TRIP_MESSAGES, withoutHomeBases, type Trip, type TripChangeOrigin, type TripWithWarnings } from '@crewswap/proto';
import type { DirectoryPilot, PilotRepository } from '../data/pilots';
import type { TripFields, TripRepository } from '../data/trips';
import type { TripEvents } from './events';
import type { KnownAirports } from './known-airports';
import { invalidAirports, routeCodes, tripWarnings } from './rules';

const M = TRIP_MESSAGES;

export interface TripDeps {
  db: Db;
  trips: TripRepository;
  pilots: PilotRepository;
  knownAirports: KnownAirports;
  events: TripEvents;
  clock: Clock;
  settings: Pick<SettingsClient, 'get'>;
  profileWaitMs: number;
}

/** What every change a pilot makes to a trip is made of; the use cases share it. */
export function createTripWork(deps: TripDeps) {
  const { db, trips, pilots, events, clock, knownAirports } = deps;
  return {
    /**
     * Runs `work` holding the pilot's directory row, so one pilot's changes never race each other.
     * Auth's registration event reaches the directory a moment after the pilot can log in; a
     * request in that gap waits for it (up to profileWaitMs) rather than failing at once.
     */
    async asPilot<T>(pilotId: string, work: (trx: Trx, pilot: DirectoryPilot) => Promise<T>): Promise<T> {
      const deadline = Date.now() + deps.profileWaitMs;
      for (;;) {
        const result = await db.transaction(async (trx) => {
          const pilot = await pilots.find(pilotId, trx, true);
          return pilot ? { value: await work(trx, pilot) } : undefined;
        });
        if (result) return result.value;
        if (Date.now() >= deadline) throw unavailable(M.profileNotReady);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },

    async ownTrip(trx: Trx, pilotId: string, id: string): Promise<Trip> {
      const trip = await trips.findOwn(pilotId, id, trx, true);
      if (!trip) throw notFound(M.tripNotFound);
      return trip;
    },

    async checkRoute(trx: Trx, route: string, missingMessage?: string): Promise<string> {
      const typed = withoutHomeBases(route);
      if (isHomeBasesOnly(typed)) throw badRequest(HOME_BASES_ONLY_MESSAGE, { title: TRIP_MESSAGES.routeTitle });
      const codes = routeCodes(typed, missingMessage);
      invalidAirports(codes, await knownAirports.known(codes, trx));
      return codes.join('-');
    },

    async searchWindow(pilot: DirectoryPilot): Promise<number> {
      // The setting is asked for only when the pilot has no day range of their own.
      return swapWindowDays(pilot.searchDayRange, pilot.searchDayRange === null ? await deps.settings.get('swap_search_days') : undefined);
    },

    withWarnings(trip: Trip): TripWithWarnings {
      return { ...trip, warnings: tripWarnings(trip.startDate, trip.endDate, clock.today()) };
    },

    /**
     * Saves a change (if it is one), publishing the trip and, when it became offered, the offer,
     * with the origin (the session that made it) so that only the pilot's other channels are told.
     */
    async save(trx: Trx, before: Trip, change: Partial<TripFields>, origin: TripChangeOrigin, options: { notifyOffer?: boolean } = {}): Promise<Trip> {
      const changed = Object.fromEntries(
        Object.entries(change).filter(([key, value]) => before[key as keyof Trip] !== value),
      ) as Partial<TripFields>;
      if (Object.keys(changed).length === 0) return before;
      const { trip, version } = await trips.update(before.id, changed, trx);
      await events.updated(trx, trip, version, origin);
      if (options.notifyOffer && trip.isSwappable && !before.isSwappable) await events.offered(trx, trip, version, origin);
      return trip;
    },
  };
}
export type TripWork = ReturnType<typeof createTripWork>;
