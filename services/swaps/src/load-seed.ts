import type { Db } from '@crewswap/kit';
import type { Pilot, Trip } from '@crewswap/proto';
import { createReadModelRepository } from './data/read-model';

/**
 * For `scripts/load.ts`: writes pilots and their trips into swaps' read model as auth's and
 * trips' events would have left it, stamped older than any event, so every real change of the
 * run wins.
 */
export async function seedLoadReadModel(db: Db, pilots: readonly Pilot[], trips: readonly Trip[]): Promise<void> {
  const readModel = createReadModelRepository(db);
  const stamp = { version: 0, at: new Date(0) };
  for (let i = 0; i < pilots.length; i += 500) {
    await readModel.applyPilotChanges(db, pilots.slice(i, i + 500).map((pilot) => ({ kind: 'profile' as const, pilot, stamp })));
  }
  for (let i = 0; i < trips.length; i += 1000) {
    await readModel.applyTripChanges(db, trips.slice(i, i + 1000).map((trip) => ({ kind: 'trip' as const, trip, stamp })));
  }
}
