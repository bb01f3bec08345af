import { randomUUID } from 'node:crypto';
import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { AdminActivityEntry } from '@crewswap/proto';

export interface ActivityRecord {
  adminId: string | null;
  /** Used when the admin id is unknown (a failed login names only an email). */
  email?: string | null;
  action: string;
  detail?: string | null;
  ipAddress?: string | null;
  at: Date;
}

interface ActivityRow {
  id: string;
  admin_id: string | null;
  admin_email: string | null;
  admin_name: string | null;
  action: string;
  detail: string | null;
  ip_address: string | null;
  at: Date;
}

export function createActivityRepository(db: Db) {
  return {
    async record(entry: ActivityRecord, trx: Executor = db): Promise<void> {
      // Name and email copied from the admin as they are now, so the entry outlives the admin.
      const admin: { email: string; name: string } | undefined = entry.adminId ? await trx('admins').where({ id: entry.adminId }).first('email', 'name') : undefined;
      await trx('admin_activity').insert({
        id: randomUUID(),
        admin_id: entry.adminId,
        admin_email: (admin?.email ?? entry.email ?? null)?.slice(0, 320) ?? null,
        admin_name: admin?.name ?? null,
        action: entry.action.slice(0, 200),
        detail: entry.detail?.slice(0, 500) ?? null,
        ip_address: entry.ipAddress?.slice(0, 100) ?? null,
        at: entry.at,
      });
    },

    async latest(limit: number, trx: Executor = db): Promise<AdminActivityEntry[]> {
      const rows: ActivityRow[] = await trx('admin_activity').orderBy('at', 'desc').orderBy('id').limit(limit);
      return rows.map((row) => ({ ...fromRow(row, ['id', 'admin_id', 'admin_name', 'admin_email', 'action', 'detail', 'ip_address']), at: row.at.toISOString() }));
    },
  };
}
export type ActivityRepository = ReturnType<typeof createActivityRepository>;
