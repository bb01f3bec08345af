import type { Clock } from '@crewswap/kit';
import { addDays, masterCalendarWindow } from '@crewswap/proto';
import type { CrewRepository, OpenTrip } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import { requireMasterRoster } from './access';
import { keptByKey } from './kept';

/** One crossover group as everyone may see it, its pilots already JSON. */
interface SharedGroup {
  flightNoStart: string;
  startDate: string;
  endDate: string;
  /** The group's JSON up to its pilots, without `crossesTripIds` and `pilots`. */
  head: string;
  pilots: { id: string; json: string }[];
}

/** Every group of the calendar window, in answer order, and by airport (the first two codes of its route, as before). */
interface Groups {
  all: SharedGroup[];
  order: Map<SharedGroup, number>;
  /** By start date (the answer's order), so a trip's candidates are a slice found by bisection. */
  byCode: Map<string, SharedGroup[]>;
  /** The longest trip when built: a group crossing a trip starts at most this long before it. */
  longestDays: number;
}

/** The first index of `groups` (by start date) starting on or after `date`. */
function firstFrom(groups: SharedGroup[], date: string): number {
  let low = 0;
  let high = groups.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (groups[middle]!.startDate < date) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Crossover Calendar: for the caller's trips not ended yet and starting within the calendar's
 * window (to the 7th of month+2), the other crews at one of the same airports on overlapping
 * dates, grouped by flights and dates. Only for a caller with Master Roster on.
 * Every group of the window is the same for every caller, so they are built and serialized once
 * and kept `cacheMs` (decisions.md); a request reads only the caller's own trips and picks the
 * groups that cross them.
 */
export function createGetCrossoverTrips(deps: { pilots: PilotRepository; crew: CrewRepository; clock: Clock; cacheMs: number }) {
  const kept = keptByKey<Groups>({ clock: deps.clock, keepMs: deps.cacheMs });

  async function build(today: string, to: string): Promise<Groups> {
    // A trip crossing one of mine ends on or after my trip's start (at most the longest trip before today).
    const longestDays = await deps.crew.longestTripDays();
    const rows = await deps.crew.crossoverCrews({ from: addDays(today, -longestDays), to: addDays(to, longestDays) });
    const all: SharedGroup[] = [];
    const byCode = new Map<string, SharedGroup[]>();
    let last: { key: string; group: SharedGroup } | undefined;
    for (const { trip, pilot } of rows) {
      const key = [trip.flightNoStart, trip.flightNoEnd, trip.route, trip.startDate, trip.endDate].join('|');
      if (last?.key !== key) {
        const head = JSON.stringify({
          flightNumber: trip.flightNoStart,
          flightNumberEnd: trip.flightNoEnd,
          destination: trip.route,
          aircraft: trip.aircraft,
          startDate: trip.startDate,
          endDate: trip.endDate,
        }).slice(0, -1);
        last = { key, group: { flightNoStart: trip.flightNoStart, startDate: trip.startDate, endDate: trip.endDate, head, pilots: [] } };
        all.push(last.group);
        const [first, second] = trip.route.split('-');
        for (const code of new Set([first, second])) {
          if (!code) continue;
          const list = byCode.get(code) ?? [];
          list.push(last.group);
          byCode.set(code, list);
        }
      }
      last.group.pilots.push({ id: pilot.id, json: JSON.stringify(pilot) });
    }
    return { all, order: new Map(all.map((group, index) => [group, index])), byCode, longestDays };
  }

  /** The groups crossing `mine` and which of my trips each crosses; my own crews (same flight and start date) are not crossovers. */
  function crossing(groups: Groups, mine: OpenTrip[]): Map<SharedGroup, Set<string>> {
    const crossed = new Map<SharedGroup, Set<string>>();
    for (const trip of mine) {
      for (const code of new Set(trip.route.split('-'))) {
        const candidates = groups.byCode.get(code) ?? [];
        for (let index = firstFrom(candidates, addDays(trip.startDate, -groups.longestDays)); index < candidates.length; index += 1) {
          const group = candidates[index]!;
          if (group.startDate > trip.endDate) break;
          if (group.endDate < trip.startDate) continue;
          if (group.flightNoStart === trip.flightNoStart && group.startDate === trip.startDate) continue;
          const ids = crossed.get(group) ?? new Set<string>();
          ids.add(trip.id);
          crossed.set(group, ids);
        }
      }
    }
    return crossed;
  }

  return {
    /** The JSON of CrossoverTripGroup[]: by start date, flights, route and end date. */
    async execute(input: { pilotId: string }): Promise<string> {
      await requireMasterRoster(deps.pilots, input.pilotId);
      const today = deps.clock.today();
      const { to } = masterCalendarWindow(today);
      const [groups, mine] = await Promise.all([kept(`${today}|${to}`, () => build(today, to)), deps.crew.openTrips({ pilotId: input.pilotId, today, to })]);
      const parts: string[] = [];
      const crossed = [...crossing(groups, mine)].sort(([a], [b]) => groups.order.get(a)! - groups.order.get(b)!);
      for (const [group, ids] of crossed) {
        // The caller is never among the pilots, even of a group one of their other trips belongs to.
        const pilots = group.pilots.filter((pilot) => pilot.id !== input.pilotId).map((pilot) => pilot.json);
        if (pilots.length === 0) continue;
        parts.push(`${group.head},"crossesTripIds":${JSON.stringify([...ids].sort())},"pilots":[${pilots.join(',')}]}`);
      }
      return `[${parts.join(',')}]`;
    },
  };
}
