import type { Clock } from '@crewswap/kit';
import { aircraftFlownBy, FLEETS, masterCalendarWindow, type Fleet, type Rank } from '@crewswap/proto';
import type { CrewRepository } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import { requireMasterRoster } from './access';
import { keptByKey } from './kept';
import { sharedBody, type SharedBody } from './shared-body';

/**
 * The fleets whose pilots fly an aircraft of `fleet` (decisions.md): an A330 calendar shows A330
 * and SFF pilots, an SFF calendar A330, A350 and SFF pilots, B787 only B787 pilots.
 */
export function calendarFleets(fleet: Fleet): Fleet[] {
  const flown = new Set(aircraftFlownBy(fleet));
  return FLEETS.filter((other) => aircraftFlownBy(other).some((aircraft) => flown.has(aircraft)));
}

/**
 * Master Calendar: pilots of the rank who fly the fleet's aircraft, the same fleet first, then by
 * fleet, last and first name; trips overlapping the 1st of this month to the 7th of month+2
 * (Europe/London). Only for a caller with Master Roster on. The answer is the same for every
 * caller (the app puts its own row first), so with 1,250 pilots of a rank and fleet reading ~10 MB
 * alike it is built, serialized and gzipped once per rank, fleet and window and kept `cacheMs`
 * (decisions.md); a request only checks the caller's Master Roster.
 */
export function createGetMasterCalendar(deps: { pilots: PilotRepository; crew: CrewRepository; clock: Clock; cacheMs: number }) {
  const kept = keptByKey<SharedBody>({ clock: deps.clock, keepMs: deps.cacheMs });

  return {
    async execute(input: { pilotId: string; rank: Rank; fleet: Fleet }): Promise<SharedBody> {
      await requireMasterRoster(deps.pilots, input.pilotId);
      const { from, to } = masterCalendarWindow(deps.clock.today());
      return kept([input.rank, input.fleet, from, to].join('|'), async () => {
        const entries = await deps.crew.calendar({ rank: input.rank, fleets: calendarFleets(input.fleet), fleet: input.fleet, from, to });
        return sharedBody(JSON.stringify(entries));
      });
    },
  };
}
