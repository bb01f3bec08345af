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

/** One pilot's entries, already JSON (without the brackets), so a cached calendar is joined, not re-serialized. */
interface PilotRows {
  pilotId: string;
  json: string;
}

function byPilot(entries: MasterCalendarEntry[]): PilotRows[] {
  const rows: PilotRows[] = [];
  let current: { pilotId: string; parts: string[] } | undefined;
  for (const entry of entries) {
    if (current?.pilotId !== entry.pilot.id) {
      if (current) rows.push({ pilotId: current.pilotId, json: current.parts.join(',') });
      current = { pilotId: entry.pilot.id, parts: [] };
    }
    current.parts.push(JSON.stringify(entry));
  }
  if (current) rows.push({ pilotId: current.pilotId, json: current.parts.join(',') });
  return rows;
}

/**
 * Master Calendar: the caller's own row first, then pilots of the rank who fly the fleet's
 * aircraft, the same fleet first, then by fleet, last and first name; trips overlapping the 1st of
 * this month to the 7th of month+2 (Europe/London). Only for a caller with Master Roster on.
 * Answers the JSON text of MasterCalendarEntry[]: with thousands of pilots of a rank and fleet the
 * other rows are the same for all of them, so they are kept `cacheMs` (one read at a time per
 * calendar) and joined as text; the caller's own row is always read fresh.
 */
export function createGetMasterCalendar(deps: { pilots: PilotRepository; crew: CrewRepository; clock: Clock; cacheMs: number }) {
  const cache = new Map<string, { at: number; rows: Promise<PilotRows[]> }>();

  function otherRows(input: { rank: Rank; fleet: Fleet; from: string; to: string }): Promise<PilotRows[]> {
    const now = deps.clock.now().getTime();
    for (const [key, kept] of cache) if (now - kept.at >= deps.cacheMs) cache.delete(key);
    const key = [input.rank, input.fleet, input.from, input.to].join('|');
    const kept = cache.get(key);
    if (kept) return kept.rows;
    // Everyone of the rank and fleet, the caller included: the caller's row is dropped when joined.
    const rows = deps.crew.calendar({ ...input, fleets: calendarFleets(input.fleet), exceptPilotId: null }).then(byPilot);
    if (deps.cacheMs > 0) {
      cache.set(key, { at: now, rows });
      rows.catch(() => cache.delete(key));
    }
    return rows;
  }

  return {
    async execute(input: { pilotId: string; rank: Rank; fleet: Fleet }): Promise<string> {
      await requireMasterRoster(deps.pilots, input.pilotId);
      const { from, to } = masterCalendarWindow(deps.clock.today());
      const [own, others] = await Promise.all([deps.crew.ownCalendar(input.pilotId, from, to), otherRows({ rank: input.rank, fleet: input.fleet, from, to })]);
      const parts = own.map((entry) => JSON.stringify(entry));
      for (const rows of others) if (rows.pilotId !== input.pilotId) parts.push(rows.json);
      return `[${parts.join(',')}]`;
    },
  };
}
