import type { Db, Executor } from '@crewswap/kit';
import type { Trip } from '@crewswap/proto';
import { toTrip, type TripRow } from './trips';

/** Which trips are in a live agreed swap (agreed or approved by crewing), as swaps told us. */
export function createAgreedSwapRepository(db: Db) {
  return {
    async record(agreementId: string, tripIds: string[], trx: Executor = db): Promise<void> {
      await trx('agreed_swaps')
        .insert(tripIds.map((tripId) => ({ trip_id: tripId, agreement_id: agreementId })))
        .onConflict('trip_id')
        .merge();
    },
    async clear(agreementId: string, trx: Executor = db): Promise<void> {
      await trx('agreed_swaps').where({ agreement_id: agreementId }).delete();
    },
    /**
     * Gives a trip to another pilot as crewing approved, only while `fromPilotId` still holds it
     * (undefined otherwise: already moved, or gone). It is no longer offered, and what the old
     * holder asked of it (description, Keep, search dates) goes with them.
     */
    async moveTrip(move: { tripId: string; fromPilotId: string; toPilotId: string }, trx: Executor = db): Promise<{ trip: Trip; version: number } | undefined> {
      const [row] = (await trx('trips')
        .where({ id: move.tripId, pilot_id: move.fromPilotId })
        .update({
          pilot_id: move.toPilotId,
          is_swappable: false,
          swap_description: null,
          requested: false,
          search_start_date: null,
          search_end_date: null,
          version: trx.raw('version + 1'),
          updated_at: trx.fn.now(),
        })
        .returning('*')) as TripRow[];
      return row && { trip: toTrip(row), version: row.version };
    },
  };
}
export type AgreedSwapRepository = ReturnType<typeof createAgreedSwapRepository>;
