import type { Clock } from '@crewswap/kit';
import { aircraftFlownBy, FLEETS, masterCalendarWindow, type Fleet, type MasterCalendarEntry, type Rank } from '@crewswap/proto';
import type { CrewRepository } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import { requireMasterRoster } from './access';

/**
 * The fleets whose pilots fly an aircraft of `fleet` (decisions.md): an A330 calendar shows A330
 * and SFF pilots, an SFF calendar A330, A350 and SFF pilots, B787 only B787 pilots.
 */
export function calendarFleets(fleet: Fleet): Fleet[] {
  const flown = new Set(aircraftFlownBy(fleet));
  return FLEETS.filter((other) => aircraftFlownBy(other).some((aircraft) => flown.has(aircraft)));
}

/**
 * Master Calendar: the caller's own row first, then pilots of the rank who fly the fleet's
 * aircraft, the same fleet first, then by fleet, last and first name; trips overlapping the 1st of
 * this month to the 7th of month+2 (Europe/London). Only for a caller with Master Roster on.
 */
export function createGetMasterCalendar(deps: { pilots: PilotRepository; crew: CrewRepository; clock: Clock }) {
  return {
    async execute(input: { pilotId: string; rank: Rank; fleet: Fleet }): Promise<MasterCalendarEntry[]> {
      await requireMasterRoster(deps.pilots, input.pilotId);
      const { from, to } = masterCalendarWindow(deps.clock.today());
      const [own, others] = await Promise.all([
        deps.crew.ownCalendar(input.pilotId, from, to),
        deps.crew.calendar({ rank: input.rank, fleet: input.fleet, fleets: calendarFleets(input.fleet), from, to, exceptPilotId: input.pilotId }),
      ]);
      return [...own, ...others];
    },
  };
}
