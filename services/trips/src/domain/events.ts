import type { Executor, Outbox, OutboxRow } from '@crewswap/kit';
import { SUBJECTS, type Trip, type TripChangeOrigin } from '@crewswap/proto';

/** Changes nobody asked for in person: purges, a deleted pilot's trips, demo data. */
export const SYSTEM_ORIGIN: TripChangeOrigin = { channel: 'system' };

/**
 * Every trip change goes out through the outbox with the whole trip, versioned by the trip's own
 * counter so that a read model (swaps) can apply them in order, and with its origin, so that the
 * pilot's other devices are told (realtime) and the one that made it is not.
 */
export function createTripEvents(outbox: Outbox) {
  return {
    created: (trx: Executor, trip: Trip, origin: TripChangeOrigin = SYSTEM_ORIGIN) => outbox.write(trx, SUBJECTS.tripCreated, { trip, origin }, 1),
    /** The outbox rows of a new trip (and of its offer), for insertWithEventsUnlessOverlap. */
    createdRows: (trip: Trip, origin: TripChangeOrigin = SYSTEM_ORIGIN): OutboxRow[] => [
      ...outbox.rows(SUBJECTS.tripCreated, [{ data: { trip, origin }, version: 1 }]),
      ...(trip.isSwappable ? outbox.rows(SUBJECTS.tripOffered, [{ data: { trip, origin }, version: 1 }]) : []),
    ],
    written: (trx: Executor) => outbox.written(trx),
    createdMany: (trx: Executor, trips: Trip[], origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.writeMany(trx, SUBJECTS.tripCreated, trips.map((trip) => ({ data: { trip, origin }, version: 1 }))),
    updated: (trx: Executor, trip: Trip, version: number, origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.write(trx, SUBJECTS.tripUpdated, { trip, origin }, version),
    offered: (trx: Executor, trip: Trip, version: number, origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.write(trx, SUBJECTS.tripOffered, { trip, origin }, version),
    /** Several updates or deletions in one insert (a roster import's changes). */
    updatedMany: (trx: Executor, items: { trip: Trip; version: number }[], origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.writeMany(trx, SUBJECTS.tripUpdated, items.map(({ trip, version }) => ({ data: { trip, origin }, version }))),
    deletedMany: (trx: Executor, items: { trip: Trip; version: number }[], origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.writeMany(trx, SUBJECTS.tripDeleted, items.map(({ trip, version }) => ({ data: { tripId: trip.id, pilotId: trip.pilotId, trip, origin }, version }))),
    deleted: (trx: Executor, trip: Trip, version: number, origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.write(trx, SUBJECTS.tripDeleted, { tripId: trip.id, pilotId: trip.pilotId, trip, origin }, version),
  };
}
export type TripEvents = ReturnType<typeof createTripEvents>;
