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
    updated: (trx: Executor, trip: Trip, version: number, origin: TripChangeOrigin = SYSTEM_ORIGIN, movedFrom?: string) =>
      outbox.write(trx, SUBJECTS.tripUpdated, { trip, origin, ...(movedFrom ? { movedFrom } : {}) }, version),
    offered: (trx: Executor, trip: Trip, version: number, origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.write(trx, SUBJECTS.tripOffered, { trip, origin }, version),
    /**
     * A roster import's deletions, updates and new trips in one insert, in that order (their
     * serial seq follows it, so they publish in that order): one round trip instead of three.
     */
    async importedMany(
      trx: Executor,
      changes: { deleted: { trip: Trip; version: number }[]; updated: { trip: Trip; version: number }[]; created: Trip[] },
      origin: TripChangeOrigin = SYSTEM_ORIGIN,
    ): Promise<void> {
      const rows = [
        ...outbox.rows(SUBJECTS.tripDeleted, changes.deleted.map(({ trip, version }) => ({ data: { tripId: trip.id, pilotId: trip.pilotId, trip, origin }, version }))),
        ...outbox.rows(SUBJECTS.tripUpdated, changes.updated.map(({ trip, version }) => ({ data: { trip, origin }, version }))),
        ...outbox.rows(SUBJECTS.tripCreated, changes.created.map((trip) => ({ data: { trip, origin }, version: 1 }))),
      ];
      if (rows.length === 0) return;
      await trx('outbox').insert(rows);
      outbox.written(trx);
    },
    deleted: (trx: Executor, trip: Trip, version: number, origin: TripChangeOrigin = SYSTEM_ORIGIN) =>
      outbox.write(trx, SUBJECTS.tripDeleted, { tripId: trip.id, pilotId: trip.pilotId, trip, origin }, version),
  };
}
export type TripEvents = ReturnType<typeof createTripEvents>;
