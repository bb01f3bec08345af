import type { Db } from '@crewswap/kit';
import type { Pilot, Trip } from '@crewswap/proto';
import { createPilotRepository } from './data/pilots';
import { createTripRepository } from './data/trips';
import { demoTripsFor } from './seed/demo-trips';

/** Pilots written at once: about what the pool runs in parallel. */
const AT_ONCE = 8;

/**
 * For `scripts/load.ts`: puts each pilot into trips' directory, as auth's event would have left
 * it but stamped at the epoch (so any real event of the run wins), and gives them the demo roster
 * (two months from `today`, a fifth offered), with no events. Answers the trips as stored.
 */
export async function seedLoadRosters(db: Db, pilots: readonly Pilot[], today: string): Promise<Trip[]> {
  const directory = createPilotRepository(db);
  const tripRepository = createTripRepository(db);
  const epoch = new Date(0).toISOString();
  const trips: Trip[] = [];
  for (let i = 0; i < pilots.length; i += AT_ONCE) {
    await Promise.all(
      pilots.slice(i, i + AT_ONCE).map(async (pilot) => {
        await directory.applyProfile(pilot, epoch);
        trips.push(...(await tripRepository.insertMany(pilot.id, demoTripsFor(pilot, today))));
      }),
    );
  }
  // The planner's statistics would otherwise describe the empty table until autovacuum came by.
  await db.raw('ANALYZE trips');
  return trips;
}
