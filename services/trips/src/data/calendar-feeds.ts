import type { Db, Executor } from '@crewswap/kit';

/** A trip as the feed's ETag sees it. */
export interface FeedTripVersion {
  id: string;
  version: number;
  agreed: boolean;
}

/** Each pilot's calendar feed: the hash of its token, never the token itself. */
export function createCalendarFeedRepository(db: Db) {
  return {
    async isEnabled(pilotId: string, trx: Executor = db): Promise<boolean> {
      return (await trx('calendar_feeds').where({ pilot_id: pilotId }).first('pilot_id')) !== undefined;
    },

    /** Makes or replaces the pilot's feed: the old token's hash is gone in the same statement. */
    async replace(pilotId: string, tokenHash: string, trx: Executor = db): Promise<void> {
      await trx('calendar_feeds')
        .insert({ pilot_id: pilotId, token_hash: tokenHash, created_at: trx.fn.now() })
        .onConflict('pilot_id')
        .merge(['token_hash', 'created_at']);
    },

    async remove(pilotId: string, trx: Executor = db): Promise<void> {
      await trx('calendar_feeds').where({ pilot_id: pilotId }).delete();
    },

    /**
     * In one statement, what the feed's ETag is made of: the pilot a token hash belongs to (unless
     * that pilot is deleted or never reached the directory) and each of the pilot's trips that has
     * not ended by `today`, with its version and whether a swap of it is agreed, in the feed's
     * order. Undefined for a token that is not a feed.
     */
    async versionsOf(tokenHash: string, today: string, trx: Executor = db): Promise<{ pilotId: string; trips: FeedTripVersion[] } | undefined> {
      const { rows } = (await trx.raw(
        `SELECT feed.pilot_id, trip.id AS trip_id, trip.version, EXISTS (SELECT 1 FROM agreed_swaps WHERE agreed_swaps.trip_id = trip.id) AS agreed
           FROM calendar_feeds feed
           JOIN pilots ON pilots.id = feed.pilot_id AND NOT pilots.deleted
           LEFT JOIN trips trip ON trip.pilot_id = feed.pilot_id AND trip.end_date >= ?
          WHERE feed.token_hash = ?
          ORDER BY trip.start_date, trip.end_date, trip.flight_no_start`,
        [today, tokenHash],
      )) as { rows: { pilot_id: string; trip_id: string | null; version: number | null; agreed: boolean }[] };
      if (rows.length === 0) return undefined;
      return {
        pilotId: rows[0]!.pilot_id,
        // A pilot with no upcoming trip has one row, with no trip.
        trips: rows.filter((row) => row.trip_id !== null).map((row) => ({ id: row.trip_id!, version: row.version!, agreed: row.agreed })),
      };
    },
  };
}
export type CalendarFeedRepository = ReturnType<typeof createCalendarFeedRepository>;
