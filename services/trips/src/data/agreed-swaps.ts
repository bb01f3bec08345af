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
  };
}
export type AgreedSwapRepository = ReturnType<typeof createAgreedSwapRepository>;
