import type { Db, Executor } from '@crewswap/kit';

export interface HeldPush {
  logId: string;
  pilotId: string;
  kind: string;
  title: string;
  body: string;
  url: string;
}

/** Pushes waiting for their pilot's quiet hours to end; each is a notification_log row marked held. */
export function createHeldPushes(db: Db) {
  return {
    /** Holds a push: its log row says held, in the same transaction. */
    async hold(logId: string, pilotId: string, at: Date): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('held_pushes').insert({ log_id: logId, pilot_id: pilotId, held_at: at }).onConflict('log_id').ignore();
        await trx('notification_log').where({ id: logId }).update({ status: 'held', updated_at: at });
      });
    },

    /** Pilots with pushes held, and their quiet hours now (null: turned off since). */
    async pilots(ex: Executor = db): Promise<{ pilotId: string; quietHours: { start: string; end: string; timeZone: string } | null }[]> {
      const { rows } = await ex.raw<{ rows: { pilot_id: string; quiet_hours: { start: string; end: string; timeZone: string } | null }[] }>(
        `SELECT h.pilot_id, p.quiet_hours
           FROM (SELECT DISTINCT pilot_id FROM held_pushes) h
           LEFT JOIN notification_preferences p ON p.pilot_id = h.pilot_id`,
      );
      return rows.map((row) => ({ pilotId: row.pilot_id, quietHours: row.quiet_hours }));
    },

    /** Takes these pilots' held pushes out (oldest first), marking their log rows released. */
    async take(pilotIds: string[], at: Date, ex: Executor): Promise<HeldPush[]> {
      const { rows } = await ex.raw<{ rows: { log_id: string; pilot_id: string; held_at: Date; kind: string; title: string; body: string; url: string }[] }>(
        `WITH taken AS (DELETE FROM held_pushes WHERE pilot_id = ANY(?) RETURNING log_id, pilot_id, held_at)
         UPDATE notification_log l SET status = 'released', updated_at = ?
           FROM taken WHERE l.id = taken.log_id
         RETURNING taken.log_id, taken.pilot_id, taken.held_at, l.kind, l.title, l.body, l.url`,
        [pilotIds, at],
      );
      return rows
        .sort((a, b) => a.held_at.getTime() - b.held_at.getTime() || a.log_id.localeCompare(b.log_id))
        .map((row) => ({ logId: row.log_id, pilotId: row.pilot_id, kind: row.kind, title: row.title, body: row.body, url: row.url }));
    },
  };
}
export type HeldPushes = ReturnType<typeof createHeldPushes>;
