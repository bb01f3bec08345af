import type { Db } from '@crewswap/kit';
import type { Logger } from 'pino';
import type { RosterOf } from '../rules/legality';
import { startListener } from './offer-index/listener';

/** The channel the trips and pilots tables' triggers name changed rosters on, by pilot id (migration 'roster-notify'). */
export const ROSTERS_CHANNEL = 'swaps_rosters';

export interface RosterCache {
  /** The pilot's roster if held (and the cache in step with the tables); else undefined. */
  held(pilotId: string): RosterOf | undefined;
  /** The rosters of these pilots (those with a profile): held ones from memory, the others read in one statement and kept. */
  rosters(pilotIds: string[]): Promise<Map<string, RosterOf>>;
  /** Settles once every change committed before the call is applied (the listener's barrier). */
  catchUp(): Promise<void>;
  /** Rosters held, and whether the cache is in use. */
  status(): { pilots: number; ready: boolean };
  close(): Promise<void>;
}

/**
 * The rosters the flight time limitations check reads (issue 55), kept in memory once read: Find
 * swaps checks each Mutual offer against its owner's roster and every row against the asker's,
 * and reading and parsing those rosters, then working out their trips' duties again, cost more
 * than the rest of the answer. A roster is the same objects from one request to the next, so the
 * duties worked out for its trips (proto's legality.ts keeps them per trip object) are kept too.
 *
 * Postgres stays the truth: the tables' triggers name every pilot whose trips or base change and
 * the cache forgets them (the offer index's listener, on a channel of its own); a roster read
 * while any change arrived is used once and not kept, so a read that raced a change is never
 * kept. While the listener is not in step (starting, its connection lost) nothing is kept or
 * served from memory. At most `maxPilots` rosters are held, the least recently used going first.
 */
export async function startRosterCache(deps: {
  db: Db;
  connectionString: string;
  log: Logger;
  maxPilots: number;
  read: (pilotIds: string[]) => Promise<Map<string, RosterOf>>;
  heartbeatMs?: number;
}): Promise<RosterCache> {
  const held = new Map<string, RosterOf>();
  /** Counts the notices applied: a read that saw it move may have read a roster as it was before. */
  let changes = 0;
  const listener = await startListener({
    db: deps.db,
    connectionString: deps.connectionString,
    log: deps.log,
    heartbeatMs: deps.heartbeatMs,
    channel: ROSTERS_CHANNEL,
    name: 'roster cache',
    follower: {
      async reloadAll() {
        changes += 1;
        held.clear();
      },
      async reread(pilotIds) {
        changes += 1;
        for (const id of pilotIds) held.delete(id);
      },
      size: () => held.size,
    },
  });

  const heldRoster = (pilotId: string): RosterOf | undefined => {
    if (!listener.ready()) return undefined;
    const roster = held.get(pilotId);
    if (roster) {
      // The most recently used last: the first key is the one to let go.
      held.delete(pilotId);
      held.set(pilotId, roster);
    }
    return roster;
  };

  return {
    held: heldRoster,
    async rosters(pilotIds) {
      const found = new Map<string, RosterOf>();
      const missing: string[] = [];
      for (const id of new Set(pilotIds)) {
        const roster = heldRoster(id);
        if (roster) found.set(id, roster);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      const changesBefore = changes;
      const ready = listener.ready();
      const read = await deps.read(missing);
      const keep = ready && listener.ready() && changes === changesBefore;
      for (const [id, roster] of read) {
        found.set(id, roster);
        if (!keep) continue;
        held.set(id, roster);
        if (held.size > deps.maxPilots) held.delete(held.keys().next().value!);
      }
      return found;
    },
    catchUp: () => listener.catchUp(),
    status: () => ({ pilots: held.size, ready: listener.ready() }),
    close: () => listener.close(),
  };
}
