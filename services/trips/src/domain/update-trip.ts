import { badRequest } from '@crewswap/kit';
import { TRIP_MESSAGES, type TripWithWarnings, type UpdateTripBody, type TripChangeOrigin } from '@crewswap/proto';
import type { TripFields } from '../data/trips';
import { checkAcceptedDates, checkDates, checkTripTimes, checkFlightNumbers, checkTraining, chooseAircraft, conflictWith, isStandbyDuty, normalizeCompanions, normalizeFlightNo, normalizeRoute } from './rules';
import type { TripDeps, TripWork } from './trip-work';

const M = TRIP_MESSAGES;

/** Edit Trip: only the fields sent change; a changed date range must not overlap another trip. */
export function createUpdateTrip(deps: Pick<TripDeps, 'trips' | 'clock'> & { work: TripWork }) {
  const { trips, clock, work } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: UpdateTripBody; origin: TripChangeOrigin }): Promise<TripWithWarnings> {
      const { pilotId, id, body } = input;
      if (Object.keys(body).length === 0) throw badRequest(M.noChanges, { title: M.noChangesTitle });
      checkAcceptedDates([body.startDate, body.endDate], clock.today());
      return work.asPilot(pilotId, async (trx, pilot) => {
        const before = await work.ownTrip(trx, pilotId, id);
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
          change.route = await work.checkRoute(trx, route, M.editMissing);
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

        // Typed report and release times (issue 55): left out, kept; null, cleared.
        const reportAt = body.reportAt === undefined ? before.reportAt : body.reportAt;
        const releaseAt = body.releaseAt === undefined ? before.releaseAt : body.releaseAt;
        if (body.reportAt !== undefined || body.releaseAt !== undefined || datesChanged) checkTripTimes(startDate, endDate, reportAt, releaseAt);
        if (body.reportAt !== undefined) change.reportAt = body.reportAt;
        if (body.releaseAt !== undefined) change.releaseAt = body.releaseAt;

        if (datesChanged) {
          const overlap = await trips.findOverlap(pilotId, startDate, endDate, id, trx);
          if (overlap) throw conflictWith(overlap);
        }
        return work.withWarnings(await work.save(trx, before, change, input.origin));
      });
    },
  };
}
export type UpdateTrip = ReturnType<typeof createUpdateTrip>;
