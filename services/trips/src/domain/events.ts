import type { Executor, Outbox } from '@crewswap/kit';
import { SUBJECTS, type Trip } from '@crewswap/proto';

/**
 * Every trip change goes out through the outbox with the whole trip, versioned by the trip's own
 * counter so that a read model (swaps) can apply them in order.
 */
export function createTripEvents(outbox: Outbox) {
  return {
    created: (trx: Executor, trip: Trip) => outbox.write(trx, SUBJECTS.tripCreated, { trip }, 1),
    createdMany: (trx: Executor, trips: Trip[]) => outbox.writeMany(trx, SUBJECTS.tripCreated, trips.map((trip) => ({ data: { trip }, version: 1 }))),
    updated: (trx: Executor, trip: Trip, version: number) => outbox.write(trx, SUBJECTS.tripUpdated, { trip }, version),
    offered: (trx: Executor, trip: Trip, version: number) => outbox.write(trx, SUBJECTS.tripOffered, { trip }, version),
    deleted: (trx: Executor, trip: Trip, version: number) =>
      outbox.write(trx, SUBJECTS.tripDeleted, { tripId: trip.id, pilotId: trip.pilotId, trip }, version),
  };
}
export type TripEvents = ReturnType<typeof createTripEvents>;
