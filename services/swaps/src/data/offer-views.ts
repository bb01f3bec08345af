import type { Db, Executor } from '@crewswap/kit';

/**
 * Who found which offer in Find swaps, and when (one row per pilot and offer, the latest time):
 * the pilots to tell when a roster takes the offer away. Kept a day, no more.
 */
export function createOfferViewRepository(db: Db) {
  return {
    async record(pilotId: string, tripIds: string[], seenAt: Date, trx: Executor = db): Promise<void> {
      if (tripIds.length === 0) return;
      await trx('offer_views')
        .insert([...new Set(tripIds)].map((tripId) => ({ trip_id: tripId, pilot_id: pilotId, seen_at: seenAt })))
        .onConflict(['trip_id', 'pilot_id'])
        .merge(['seen_at']);
    },

    /** The pilots who saw the offer since `since`; the offer's rows go (it is no longer offered). */
    async takeViewers(tripId: string, since: Date, trx: Executor = db): Promise<string[]> {
      const rows: { pilot_id: string; seen_at: Date }[] = await trx('offer_views').where({ trip_id: tripId }).delete().returning(['pilot_id', 'seen_at']);
      return rows.filter((row) => row.seen_at >= since).map((row) => row.pilot_id).sort();
    },

    async prune(before: Date, trx: Executor = db): Promise<number> {
      return trx('offer_views').where('seen_at', '<', before).delete();
    },
  };
}
export type OfferViewRepository = ReturnType<typeof createOfferViewRepository>;
