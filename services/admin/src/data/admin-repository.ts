import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Admin, CurrentAdmin, Permission } from '@crewswap/proto';

interface AdminRow {
  id: string;
  email: string;
  name: string;
  phone: string | null;
  job_title: string | null;
  is_master_admin: boolean;
  permissions: Permission[];
  password_hash: string | null;
  last_login_at: Date | null;
}

export interface NewAdmin {
  id: string;
  email: string;
  name: string;
  phone?: string | null;
  jobTitle?: string | null;
  isMasterAdmin: boolean;
  permissions: Permission[];
  passwordHash: string | null;
}

export function toAdmin(row: AdminRow): Admin {
  return {
    ...fromRow(row, ['id', 'email', 'name', 'phone', 'job_title', 'is_master_admin', 'permissions']),
    lastLoginAt: row.last_login_at ? row.last_login_at.toISOString() : null,
  };
}

export function toCurrentAdmin(admin: Admin): CurrentAdmin {
  return {
    id: admin.id,
    name: admin.name,
    email: admin.email,
    isMasterAdmin: admin.isMasterAdmin,
    permissions: admin.permissions,
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;

export function createAdminRepository(db: Db) {
  return {
    async count(trx: Executor = db): Promise<number> {
      const row = await trx('admins').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async insert(admin: NewAdmin, trx: Executor = db): Promise<void> {
      await trx('admins').insert({
        id: admin.id,
        email: admin.email.toLowerCase(),
        name: admin.name,
        phone: admin.phone ?? null,
        job_title: admin.jobTitle ?? null,
        is_master_admin: admin.isMasterAdmin,
        permissions: admin.permissions,
        password_hash: admin.passwordHash,
      });
    },

    async findWithPasswordByEmail(email: string, trx: Executor = db): Promise<{ admin: Admin; passwordHash: string | null } | undefined> {
      const row: AdminRow | undefined = await trx('admins').where({ email: email.toLowerCase() }).first();
      return row ? { admin: toAdmin(row), passwordHash: row.password_hash } : undefined;
    },

    async list(trx: Executor = db): Promise<Admin[]> {
      const rows: AdminRow[] = await trx('admins').orderBy([{ column: 'is_master_admin', order: 'desc' }, 'name', 'email']);
      return rows.map(toAdmin);
    },

    async findById(id: string, trx: Executor = db): Promise<Admin | undefined> {
      const row: AdminRow | undefined = await trx('admins').where({ id }).first();
      return row ? toAdmin(row) : undefined;
    },

    async emailTaken(email: string, exceptId: string | null, trx: Executor = db): Promise<boolean> {
      const query = trx('admins').where({ email: email.toLowerCase() });
      if (exceptId) query.whereNot({ id: exceptId });
      return (await query.first('id')) !== undefined;
    },

    async update(
      id: string,
      changes: { email: string; name: string; phone: string | null; jobTitle: string | null; isMasterAdmin: boolean; permissions: Permission[] },
      trx: Executor = db,
    ): Promise<Admin | undefined> {
      const [row]: AdminRow[] = await trx('admins')
        .where({ id })
        .update({
          email: changes.email.toLowerCase(),
          name: changes.name,
          phone: changes.phone,
          job_title: changes.jobTitle,
          is_master_admin: changes.isMasterAdmin,
          permissions: changes.permissions,
        })
        .returning('*');
      return row ? toAdmin(row) : undefined;
    },

    async remove(id: string, trx: Executor = db): Promise<void> {
      await trx('admins').where({ id }).delete();
    },

    /** Sets the password only while the admin has never logged in; answers whether it did. */
    async setInitialPassword(id: string, passwordHash: string, trx: Executor = db): Promise<boolean> {
      return (await trx('admins').where({ id }).whereNull('last_login_at').update({ password_hash: passwordHash })) > 0;
    },

    /** Ends every open session of an admin; answers the ended session ids. */
    async endSessionsOf(adminId: string, at: Date, reason: string, trx: Executor = db): Promise<string[]> {
      const rows: { id: string }[] = await trx('admin_sessions')
        .where({ admin_id: adminId })
        .whereNull('ended_at')
        .update({ ended_at: at, end_reason: reason })
        .returning('id');
      return rows.map((row) => row.id);
    },

    async recordLogin(adminId: string, at: Date, trx: Executor = db): Promise<void> {
      await trx('admins').where({ id: adminId }).update({ last_login_at: at });
    },

    async startSession(
      session: { id: string; adminId: string; at: Date; ipAddress: string | null; userAgent: string | null },
      trx: Executor = db,
    ): Promise<void> {
      await trx('admin_sessions').insert({
        id: session.id,
        admin_id: session.adminId,
        created_at: session.at,
        last_activity_at: session.at,
        ip_address: session.ipAddress?.slice(0, 100) ?? null,
        user_agent: session.userAgent?.slice(0, 500) ?? null,
      });
    },

    /** Records use of a session (reported by any service's guard). */
    async touchSession(sessionId: string, at: Date, trx: Executor = db): Promise<void> {
      await trx('admin_sessions')
        .where({ id: sessionId })
        .whereNull('ended_at')
        .update({ last_activity_at: trx.raw('GREATEST(last_activity_at, ?)', [at]) });
    },

    /** Ends open sessions unused since `idleSince`; answers them. */
    async endIdleSessions(idleSince: Date, at: Date, trx: Executor = db): Promise<{ id: string; adminId: string }[]> {
      const rows: { id: string; admin_id: string }[] = await trx('admin_sessions')
        .whereNull('ended_at')
        .where('last_activity_at', '<', idleSince)
        .update({ ended_at: at, end_reason: 'timeout' })
        .returning(['id', 'admin_id']);
      return rows.map((row) => ({ id: row.id, adminId: row.admin_id }));
    },

    /** Ends a session that is still open; answers whether it was. */
    async endSession(sessionId: string, at: Date, reason: string, trx: Executor = db): Promise<boolean> {
      const ended = await trx('admin_sessions').where({ id: sessionId }).whereNull('ended_at').update({ ended_at: at, end_reason: reason });
      return ended > 0;
    },

    /** The admin of an open session, or undefined when the session ended or the admin is gone. */
    async findBySession(sessionId: string, trx: Executor = db): Promise<Admin | undefined> {
      const row: AdminRow | undefined = await trx('admin_sessions as s')
        .join('admins as a', 'a.id', 's.admin_id')
        .where('s.id', sessionId)
        .whereNull('s.ended_at')
        .first('a.*');
      return row ? toAdmin(row) : undefined;
    },

    async findSession(sessionId: string, trx: Executor = db): Promise<{ endedAt: Date | null; endReason: string | null } | undefined> {
      const row = await trx('admin_sessions').where({ id: sessionId }).first('ended_at', 'end_reason');
      return row ? { endedAt: row.ended_at, endReason: row.end_reason } : undefined;
    },
  };
}
