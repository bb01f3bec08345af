import type { Db, Executor } from '@crewswap/kit';
import type { AlertReason, BellEntry } from '@crewswap/proto';

/** How many alerts the bell shows. */
export const BELL_SIZE = 50;

/**
 * The bell: the pilot's pushes that have a reason, from the notification log (a push held in
 * quiet hours is there already; one turned off in preferences or too old is not). Read is kept
 * on the row, so it is read on every device.
 */
export function createBell(db: Db) {
  const shown = (ex: Executor, pilotId: string) => ex('notification_log').where({ pilot_id: pilotId }).whereNotNull('reason').whereNotIn('status', ['skipped', 'expired']);
  return {
    async list(pilotId: string, ex: Executor = db): Promise<{ entries: BellEntry[]; unread: number }> {
      const [rows, count] = await Promise.all([
        shown(ex, pilotId).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(BELL_SIZE)
          .select<{ id: string; reason: AlertReason; title: string; body: string; url: string; created_at: Date; read_at: Date | null }[]>('id', 'reason', 'title', 'body', 'url', 'created_at', 'read_at'),
        this.unread(pilotId, ex),
      ]);
      const entries = rows.map((row) => ({ id: row.id, reason: row.reason, title: row.title, body: row.body, url: row.url, createdAt: row.created_at.toISOString(), read: row.read_at !== null }));
      return { entries, unread: count };
    },

    async unread(pilotId: string, ex: Executor = db): Promise<number> {
      const row = await shown(ex, pilotId).whereNull('read_at').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /** Marks the pilot's own entries read (these ids, or all); another pilot's ids change nothing. How many were unread. */
    async markRead(pilotId: string, ids: string[] | undefined, at: Date, ex: Executor = db): Promise<number> {
      const query = ex('notification_log').where({ pilot_id: pilotId }).whereNotNull('reason').whereNull('read_at');
      return (ids ? query.whereIn('id', ids) : query).update({ read_at: at });
    },
  };
}
export type Bell = ReturnType<typeof createBell>;
