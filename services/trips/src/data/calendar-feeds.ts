import type { Db, Executor } from '@crewswap/kit';

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

    /** The pilot a token hash belongs to, unless that pilot is deleted (or never reached the directory). */
    async pilotOf(tokenHash: string, trx: Executor = db): Promise<string | undefined> {
      const row: { pilot_id: string } | undefined = await trx('calendar_feeds')
        .join('pilots', 'pilots.id', 'calendar_feeds.pilot_id')
        .where({ 'calendar_feeds.token_hash': tokenHash, 'pilots.deleted': false })
        .first('calendar_feeds.pilot_id');
      return row?.pilot_id;
    },
  };
}
export type CalendarFeedRepository = ReturnType<typeof createCalendarFeedRepository>;
