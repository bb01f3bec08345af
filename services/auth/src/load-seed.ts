import type { Db } from '@crewswap/kit';
import type { Pilot } from '@crewswap/proto';
import { createPilotRepository } from './data/pilots';
import { createPasswords } from './domain/passwords';

/** Rows written at once: about what the pool runs in parallel. */
const AT_ONCE = 8;

/**
 * For `scripts/load.ts`: writes pilots straight into auth's table as given, all with one password
 * hashed once at `hashCost` (thousands of hashes would take the run's first minutes). No events go
 * out: the load run seeds the other services' tables itself.
 */
export async function seedLoadPilots(db: Db, pilots: readonly Pilot[], login: { password: string; hashCost: number }): Promise<void> {
  const passwordHash = await createPasswords(login.hashCost).hash(login.password);
  const repository = createPilotRepository(db);
  for (let i = 0; i < pilots.length; i += AT_ONCE) {
    await Promise.all(
      pilots.slice(i, i + AT_ONCE).map((pilot) => repository.insert({ ...pilot, passwordHash, createdAt: new Date(pilot.createdAt) })),
    );
  }
}
