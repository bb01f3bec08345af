import { randomUUID } from 'node:crypto';
import type { CreateTripBody, Trip, TripWithWarnings, TripChangeOrigin } from '@crewswap/proto';
import type { z } from 'zod';
import {
  checkAcceptedDates,
  checkDates,
  checkFlightNumbers,
  checkSearchRange,
  checkSwapDescription,
  checkTripTimes,
  checkTraining,
  chooseAircraft,
  conflictWith,
  isStandbyDuty,
  normalizeCompanions,
  normalizeFlightNo,
  normalizeRoute,
} from './rules';
import type { TripDeps, TripWork } from './trip-work';

/** A trip the pilot adds by hand, published (and its offer, when it is offered). */
export function createCreateTrip(deps: Pick<TripDeps, 'trips' | 'events' | 'clock'> & { work: TripWork }) {
  const { trips, events, clock, work } = deps;
  return {
    async execute(input: { pilotId: string; body: z.output<typeof CreateTripBody>; origin: TripChangeOrigin }): Promise<TripWithWarnings> {
      const { pilotId, body } = input;
      checkAcceptedDates([body.startDate, body.endDate, body.searchStartDate, body.searchEndDate], clock.today());
      const { flightNoStart, flightNoEnd } = checkFlightNumbers(normalizeFlightNo(body.flightNoStart), normalizeFlightNo(body.flightNoEnd));
      const route = normalizeRoute(body.route);
      const standby = isStandbyDuty(flightNoStart, flightNoEnd, route);
      return work.asPilot(pilotId, async (trx, pilot) => {
        const storedRoute = standby ? route : await work.checkRoute(trx, route);
        checkDates(body.startDate, body.endDate, clock.today(), { mustNotHaveEnded: true });
        const aircraft = standby ? null : chooseAircraft(pilot.fleet, body.aircraft);
        if (body.training) checkTraining(pilot);
        const companions = normalizeCompanions(body.companions) ?? null;
        // Companions mean the pilot keeps the trip, and a kept trip is not on offer.
        const requested = body.requested || companions !== null;
        const isSwappable = body.isSwappable && !requested;
        const searchStartDate = requested ? null : (body.searchStartDate ?? null);
        const searchEndDate = requested ? null : (body.searchEndDate ?? null);
        if (searchStartDate || searchEndDate) checkSearchRange(body.startDate, searchStartDate, searchEndDate, await work.searchWindow(pilot));
        // Wall time, as the database's now() gave before (the clock decides dates, not stamps).
        const now = new Date().toISOString();
        const reportAt = body.reportAt ?? null;
        const releaseAt = body.releaseAt ?? null;
        checkTripTimes(body.startDate, body.endDate, reportAt, releaseAt);
        const trip: Trip = trips.withValue({
          id: randomUUID(),
          pilotId,
          flightNoStart,
          flightNoEnd,
          aircraft,
          route: storedRoute,
          startDate: body.startDate,
          endDate: body.endDate,
          isSwappable,
          offerType: 'swap',
          training: body.training,
          requested,
          companions,
          swapDescription: checkSwapDescription(body.swapDescription) ?? null,
          icsDescription: body.icsDescription ?? null,
          searchStartDate,
          searchEndDate,
          isStandby: standby,
          source: 'manual',
          reportAt,
          releaseAt,
          sectors: null,
          createdAt: now,
          updatedAt: now,
        });
        // The trip and its events in one statement: the id and times are chosen here so that the
        // events can be written beside the row.
        if (!(await trips.insertWithEventsUnlessOverlap(trip, events.createdRows(trip, input.origin), trx))) {
          throw conflictWith((await trips.findOverlap(pilotId, body.startDate, body.endDate, null, trx))!);
        }
        events.written(trx);
        return work.withWarnings(trip);
      });
    },
  };
}
export type CreateTrip = ReturnType<typeof createCreateTrip>;
