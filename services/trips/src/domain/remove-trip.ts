import { notFound } from '@crewswap/kit';
import { TRIP_MESSAGES, type TripChangeOrigin } from '@crewswap/proto';
import type { TripDeps } from './trip-work';

/** Deletes one of the pilot's own trips and publishes the deletion. */
export function createRemoveTrip(deps: Pick<TripDeps, 'db' | 'trips' | 'events'>) {
  const { db, trips, events } = deps;
  return {
    async execute(input: { pilotId: string; id: string; origin: TripChangeOrigin }): Promise<void> {
      await db.transaction(async (trx) => {
        const removed = await trips.deleteWhere((query) => query.where({ id: input.id, pilot_id: input.pilotId }), trx);
        if (removed.length === 0) throw notFound(TRIP_MESSAGES.tripNotFound);
        for (const { trip, version } of removed) await events.deleted(trx, trip, version, input.origin);
      });
    },
  };
}
export type RemoveTrip = ReturnType<typeof createRemoveTrip>;
