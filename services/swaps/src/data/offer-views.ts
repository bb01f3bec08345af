import type { Db, Executor } from '@crewswap/kit';

/** A view within this long of the one kept changes nothing (see `record`). */
export const RECORD_AGAIN_AFTER_MS = 60 * 60 * 1000;

/**
 * Who found which offer in Find swaps, and when (one row per pilot and offer, the latest time):
 * the pilots to tell when a roster takes the offer away. Kept a day, no more.
 */
export function createOfferViewRepository(db: Db) {
  return {
    /**
     * Every Find swaps answer records its offers (50 a page, ~400 a whole list), and a pilot looks
     * again and again: a view within the hour of the one kept changes nothing, where rewriting the
     * row (and both its indexes) each time was most of what Postgres spent on Find swaps. So the
     * time kept may be up to an hour earlier than the latest view, against a day's window.
     */
    async record(pilotId: string, tripIds: string[], seenAt: Date, trx: Executor = db): Promise<void> {
      if (tripIds.length === 0) return;
      await trx.raw(
        // Rows seen within the hour are left out before the insert: a conflict that updates
        // nothing still locks its row (half the statement's time in a pgbench of 50 such rows).
        `INSERT INTO offer_views (trip_id, pilot_id, seen_at)
         SELECT DISTINCT seen.trip_id, CAST(:pilot AS uuid), CAST(:at AS timestamptz) FROM unnest(CAST(:trips AS uuid[])) AS seen(trip_id)
          WHERE NOT EXISTS (SELECT 1 FROM offer_views kept
                             WHERE kept.trip_id = seen.trip_id AND kept.pilot_id = :pilot AND kept.seen_at >= CAST(:at AS timestamptz) - CAST(:again AS interval))
         ON CONFLICT (trip_id, pilot_id) DO UPDATE SET seen_at = EXCLUDED.seen_at
          WHERE offer_views.seen_at < EXCLUDED.seen_at - CAST(:again AS interval)`,
        { pilot: pilotId, at: seenAt, trips: tripIds, again: `${RECORD_AGAIN_AFTER_MS} milliseconds` },
      );
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
