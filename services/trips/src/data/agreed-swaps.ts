import type { Db, Executor } from '@crewswap/kit';

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
    async agreedAmong(tripIds: string[], trx: Executor = db): Promise<Set<string>> {
      if (tripIds.length === 0) return new Set();
      const rows: { trip_id: string }[] = await trx('agreed_swaps').whereIn('trip_id', tripIds).select('trip_id');
      return new Set(rows.map((row) => row.trip_id));
    },
  };
}
export type AgreedSwapRepository = ReturnType<typeof createAgreedSwapRepository>;
