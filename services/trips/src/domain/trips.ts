import { badRequest, notFound, unavailable, type Clock, type Db, type SettingsClient, type Trx } from '@crewswap/kit';
import {
  TRIP_MESSAGES,
  type CreateTripBody as CreateTripSchema,
  type DescriptionBody,
  type RequestedBody,
  type SwappableBody,
  type Trip,
  type TripChangeOrigin,
  type TripWithWarnings,
  type UpdateTripBody,
} from '@crewswap/proto';
import type { z } from 'zod';
import type { KnownAirports } from './known-airports';
import type { DirectoryPilot, PilotRepository } from '../data/pilots';
import type { TripFields, TripRepository } from '../data/trips';
import type { TripEvents } from './events';
import {
  checkAcceptedDates,
  checkDates,
  checkFlightNumbers,
  checkSearchRange,
  checkSwapDescription,
  checkTraining,
  chooseAircraft,
  conflictWith,
  invalidAirports,
  isStandbyDuty,
  normalizeCompanions,
  normalizeFlightNo,
  normalizeRoute,
  routeCodes,
  tripWarnings,
} from './rules';

const M = TRIP_MESSAGES;

export interface TripServiceDeps {
  db: Db;
  trips: TripRepository;
  pilots: PilotRepository;
  knownAirports: KnownAirports;
  events: TripEvents;
  clock: Clock;
  settings: Pick<SettingsClient, 'get'>;
  profileWaitMs: number;
}

type CreateInput = z.output<typeof CreateTripSchema>;

/** The pilot's trips and every change a pilot makes to them. */
export function createTripService(deps: TripServiceDeps) {
  const { db, trips, pilots, events, clock, knownAirports } = deps;

  /**
   * Runs `work` holding the pilot's directory row, so one pilot's changes never race each other.
   * Auth's registration event reaches the directory a moment after the pilot can log in; a
   * request in that gap waits for it (up to profileWaitMs) rather than failing at once.
   */
  async function asPilot<T>(pilotId: string, work: (trx: Trx, pilot: DirectoryPilot) => Promise<T>): Promise<T> {
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
  }

  async function ownTrip(trx: Trx, pilotId: string, id: string): Promise<Trip> {
    const trip = await trips.findOwn(pilotId, id, trx, true);
    if (!trip) throw notFound(M.tripNotFound);
    return trip;
  }

  async function checkRoute(trx: Trx, route: string, missingMessage?: string): Promise<string> {
    const codes = routeCodes(route, missingMessage);
    invalidAirports(codes, await knownAirports.known(codes, trx));
    return codes.join('-');
  }

  async function searchWindow(pilot: DirectoryPilot): Promise<number> {
    if (pilot.searchDayRange !== null) return pilot.searchDayRange;
    const setting = Number(await deps.settings.get('swap_search_days'));
    return Number.isInteger(setting) && setting >= 0 ? setting : 4;
  }

  function withWarnings(trip: Trip): TripWithWarnings {
    return { ...trip, warnings: tripWarnings(trip.startDate, trip.endDate, clock.today()) };
  }

  /** Saves a change (if it is one), publishing the trip and, when it became offered, the offer. */
  async function save(trx: Trx, before: Trip, change: Partial<TripFields>, origin: TripChangeOrigin, options: { notifyOffer?: boolean } = {}): Promise<Trip> {
    const changed = Object.fromEntries(
      Object.entries(change).filter(([key, value]) => before[key as keyof Trip] !== value),
    ) as Partial<TripFields>;
    if (Object.keys(changed).length === 0) return before;
    const { trip, version } = await trips.update(before.id, changed, trx);
    await events.updated(trx, trip, version, origin);
    if (options.notifyOffer && trip.isSwappable && !before.isSwappable) await events.offered(trx, trip, version, origin);
    return trip;
  }

  return {
    list: (pilotId: string) => trips.listByPilot(pilotId),

    async create(pilotId: string, body: CreateInput, origin: TripChangeOrigin): Promise<TripWithWarnings> {
      checkAcceptedDates([body.startDate, body.endDate, body.searchStartDate, body.searchEndDate], clock.today());
      const { flightNoStart, flightNoEnd } = checkFlightNumbers(normalizeFlightNo(body.flightNoStart), normalizeFlightNo(body.flightNoEnd));
      const route = normalizeRoute(body.route);
      const standby = isStandbyDuty(flightNoStart, flightNoEnd, route);
      return asPilot(pilotId, async (trx, pilot) => {
        const storedRoute = standby ? route : await checkRoute(trx, route);
        checkDates(body.startDate, body.endDate, clock.today(), { mustNotHaveEnded: true });
        const aircraft = standby ? null : chooseAircraft(pilot.fleet, body.aircraft);
        if (body.training) checkTraining(pilot);
        const companions = normalizeCompanions(body.companions) ?? null;
        // Companions mean the pilot keeps the trip, and a kept trip is not on offer.
        const requested = body.requested || companions !== null;
        const isSwappable = body.isSwappable && !requested;
        const searchStartDate = requested ? null : (body.searchStartDate ?? null);
        const searchEndDate = requested ? null : (body.searchEndDate ?? null);
        if (searchStartDate || searchEndDate) checkSearchRange(body.startDate, searchStartDate, searchEndDate, await searchWindow(pilot));
        const trip = await trips.insertUnlessOverlap(
          pilotId,
          {
            flightNoStart,
            flightNoEnd,
            aircraft,
            route: storedRoute,
            startDate: body.startDate,
            endDate: body.endDate,
            isSwappable,
            training: body.training,
            requested,
            companions,
            swapDescription: checkSwapDescription(body.swapDescription) ?? null,
            icsDescription: body.icsDescription ?? null,
            searchStartDate,
            searchEndDate,
            isStandby: standby,
            source: 'manual',
          },
          trx,
        );
        if (!trip) throw conflictWith((await trips.findOverlap(pilotId, body.startDate, body.endDate, null, trx))!);
        await events.created(trx, trip, origin);
        if (trip.isSwappable) await events.offered(trx, trip, 1, origin);
        return withWarnings(trip);
      });
    },

    async update(pilotId: string, id: string, body: UpdateTripBody, origin: TripChangeOrigin): Promise<TripWithWarnings> {
      if (Object.keys(body).length === 0) throw badRequest(M.noChanges, { title: M.noChangesTitle });
      checkAcceptedDates([body.startDate, body.endDate], clock.today());
      return asPilot(pilotId, async (trx, pilot) => {
        const before = await ownTrip(trx, pilotId, id);
        const change: Partial<TripFields> = {};

        const startFlight = body.flightNoStart === undefined ? before.flightNoStart : normalizeFlightNo(body.flightNoStart);
        const endFlight = body.flightNoEnd === undefined ? before.flightNoEnd : normalizeFlightNo(body.flightNoEnd);
        const flights = checkFlightNumbers(startFlight, endFlight, M.editMissing);
        Object.assign(change, flights);

        const route = body.route === undefined ? before.route : normalizeRoute(body.route);
        const standby = isStandbyDuty(flights.flightNoStart, flights.flightNoEnd, route);
        if (standby) {
          change.route = route;
        } else if (body.route !== undefined || before.isStandby) {
          change.route = await checkRoute(trx, route, M.editMissing);
        }
        change.isStandby = standby;

        const startDate = body.startDate ?? before.startDate;
        const endDate = body.endDate ?? before.endDate;
        const datesChanged = startDate !== before.startDate || endDate !== before.endDate;
        checkDates(startDate, endDate, clock.today(), { mustNotHaveEnded: datesChanged });
        Object.assign(change, { startDate, endDate });

        if (standby) change.aircraft = null;
        else if (body.aircraft !== undefined || before.aircraft === null) change.aircraft = chooseAircraft(pilot.fleet, body.aircraft ?? before.aircraft);

        if (body.training !== undefined) {
          if (body.training && !before.training) checkTraining(pilot);
          change.training = body.training;
        }
        if (body.icsDescription !== undefined) change.icsDescription = body.icsDescription;

        const companions = normalizeCompanions(body.companions);
        if (companions !== undefined) change.companions = companions;
        if (body.requested !== undefined) change.requested = body.requested;
        if (companions) change.requested = true;
        if (change.requested && !before.requested) {
          // Keep on: the trip is no longer offered and has no search range.
          Object.assign(change, { isSwappable: false, searchStartDate: null, searchEndDate: null });
        }

        if (datesChanged) {
          const overlap = await trips.findOverlap(pilotId, startDate, endDate, id, trx);
          if (overlap) throw conflictWith(overlap);
        }
        return withWarnings(await save(trx, before, change, origin));
      });
    },

    async remove(pilotId: string, id: string, origin: TripChangeOrigin): Promise<void> {
      await db.transaction(async (trx) => {
        const removed = await trips.deleteWhere((query) => query.where({ id, pilot_id: pilotId }), trx);
        if (removed.length === 0) throw notFound(M.tripNotFound);
        for (const { trip, version } of removed) await events.deleted(trx, trip, version, origin);
      });
    },

    async setSwappable(pilotId: string, id: string, body: SwappableBody, origin: TripChangeOrigin): Promise<Trip> {
      checkAcceptedDates([body.searchStartDate, body.searchEndDate], clock.today());
      return asPilot(pilotId, async (trx, pilot) => {
        const before = await ownTrip(trx, pilotId, id);
        const change: Partial<TripFields> = { isSwappable: body.isSwappable };
        const description = checkSwapDescription(body.swapDescription);
        if (description !== undefined) change.swapDescription = description;
        if (body.searchStartDate !== undefined) change.searchStartDate = body.searchStartDate;
        if (body.searchEndDate !== undefined) change.searchEndDate = body.searchEndDate;
        if (body.isSwappable) {
          // Offering resets Keep.
          change.requested = false;
        } else if (body.requested) {
          Object.assign(change, { requested: true, searchStartDate: null, searchEndDate: null });
        } else if (body.requested === false) {
          change.requested = false;
        }
        const from = change.searchStartDate === undefined ? before.searchStartDate : change.searchStartDate;
        const to = change.searchEndDate === undefined ? before.searchEndDate : change.searchEndDate;
        if ((body.searchStartDate || body.searchEndDate) && (from || to)) {
          checkSearchRange(before.startDate, from, to, await searchWindow(pilot));
        }
        return save(trx, before, change, origin, { notifyOffer: !body.skipNotification });
      });
    },

    async setDescription(pilotId: string, id: string, body: DescriptionBody, origin: TripChangeOrigin): Promise<Trip> {
      return asPilot(pilotId, async (trx) => {
        const before = await ownTrip(trx, pilotId, id);
        return save(trx, before, { swapDescription: checkSwapDescription(body.swapDescription) ?? null }, origin);
      });
    },

    async setRequested(pilotId: string, id: string, body: RequestedBody, origin: TripChangeOrigin): Promise<Trip> {
      return asPilot(pilotId, async (trx) => {
        const before = await ownTrip(trx, pilotId, id);
        const change: Partial<TripFields> = body.requested
          ? { requested: true, isSwappable: false, searchStartDate: null, searchEndDate: null }
          : { requested: false };
        return save(trx, before, change, origin);
      });
    },
  };
}
export type TripService = ReturnType<typeof createTripService>;
