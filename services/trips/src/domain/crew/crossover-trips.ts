import type { Clock } from '@crewswap/kit';
import { masterCalendarWindow, type CrossoverTripGroup } from '@crewswap/proto';
import type { CrewRepository } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import { requireMasterRoster } from './access';

/**
 * Crossover Calendar: for the caller's trips not ended yet and starting within the calendar's
 * window (to the 7th of month+2), the other crews at one of the same airports on overlapping
 * dates, grouped by flights and dates. Only for a caller with Master Roster on.
 */
export function createGetCrossoverTrips(deps: { pilots: PilotRepository; crew: CrewRepository; clock: Clock }) {
  return {
    async execute(input: { pilotId: string }): Promise<CrossoverTripGroup[]> {
      await requireMasterRoster(deps.pilots, input.pilotId);
      const today = deps.clock.today();
      const longestDays = await deps.crew.longestTripDays();
      const rows = await deps.crew.crossovers({ pilotId: input.pilotId, today, to: masterCalendarWindow(today).to, longestDays });
      const groups = new Map<string, CrossoverTripGroup & { crossed: Set<string> }>();
      for (const { trip, member, crosses } of rows) {
        const key = [trip.flightNoStart, trip.flightNoEnd, trip.route, trip.startDate, trip.endDate].join('|');
        let group = groups.get(key);
        if (!group) {
          group = {
            flightNumber: trip.flightNoStart,
            flightNumberEnd: trip.flightNoEnd,
            destination: trip.route,
            aircraft: trip.aircraft,
            startDate: trip.startDate,
            endDate: trip.endDate,
            crossesTripIds: [],
            pilots: [],
            crossed: new Set(),
          };
          groups.set(key, group);
        }
        group.pilots.push(member);
        for (const id of crosses) group.crossed.add(id);
      }
      return [...groups.values()].map(({ crossed, ...group }) => ({ ...group, crossesTripIds: [...crossed] }));
    },
  };
}
