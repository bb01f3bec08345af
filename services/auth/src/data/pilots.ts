import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Base, Fleet, Pilot, Rank } from '@crewswap/proto';

interface PilotRow {
  id: string;
  employee_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  rank: Rank;
  fleet: Fleet;
  base: Base;
  apic: boolean;
  ltc: boolean;
  usual_req: boolean;
  all_visible: boolean;
  test_data: boolean;
  email_verified: boolean;
  search_day_range: number | null;
  rank_last_changed: string | null;
  fleet_last_changed: string | null;
  ltc_last_changed: string | null;
  usual_req_off: string | null;
  password_hash: string;
  force_password_change: boolean;
  password_reset_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** A pilot with what only auth may see: credentials and the forced-change flag. */
export interface PilotRecord extends Pilot {
  passwordHash: string;
  forcePasswordChange: boolean;
  passwordResetAt: Date | null;
  version: number;
}

/** The profile fields a change may set (never id, credentials or timestamps). */
export type ProfileChanges = Partial<Omit<Pilot, 'id' | 'createdAt'>>;

const COLUMNS: Record<keyof ProfileChanges, keyof PilotRow> = {
  employeeId: 'employee_id',
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  rank: 'rank',
  fleet: 'fleet',
  base: 'base',
  apic: 'apic',
  ltc: 'ltc',
  usualReq: 'usual_req',
  allVisible: 'all_visible',
  testData: 'test_data',
  emailVerified: 'email_verified',
  searchDayRange: 'search_day_range',
  rankLastChanged: 'rank_last_changed',
  fleetLastChanged: 'fleet_last_changed',
  ltcLastChanged: 'ltc_last_changed',
  usualReqOff: 'usual_req_off',
};

function toRecord(row: PilotRow): PilotRecord {
  return {
    ...fromRow(row, [
      'id',
      'employee_id',
      'first_name',
      'last_name',
      'email',
      'phone',
      'rank',
      'fleet',
      'base',
      'apic',
      'ltc',
      'usual_req',
      'all_visible',
      'test_data',
      'email_verified',
      'search_day_range',
      'rank_last_changed',
      'fleet_last_changed',
      'ltc_last_changed',
      'usual_req_off',
      'password_hash',
      'force_password_change',
      'password_reset_at',
      'version',
    ]),
    createdAt: row.created_at.toISOString(),
  };
}

/** The public profile: what events and responses carry. */
export function toPilot(record: PilotRecord): Pilot {
  const { passwordHash: _hash, forcePasswordChange: _force, passwordResetAt: _reset, version: _version, ...pilot } = record;
  return pilot;
}

function toColumns(changes: ProfileChanges): Partial<PilotRow> {
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined) row[COLUMNS[key as keyof ProfileChanges]] = value;
  }
  return row as Partial<PilotRow>;
}

/** What every newly created pilot starts with: visible, no personal swap window, nothing locked. */
export const NEW_PILOT_DEFAULTS = {
  allVisible: true,
  searchDayRange: null,
  rankLastChanged: null,
  fleetLastChanged: null,
  ltcLastChanged: null,
  usualReqOff: null,
} as const;

export interface NewPilot extends Omit<Pilot, 'createdAt'> {
  passwordHash: string;
  forcePasswordChange?: boolean;
  createdAt: Date;
}

export interface PilotFilters {
  fleet?: Fleet;
  rank?: Rank;
  testData?: boolean;
  usualReq?: boolean;
  search?: string;
}

/** Postgres 'unique_violation': a second pilot with the same employee ID or email (the kit's check). */
export { isUniqueViolation } from '@crewswap/kit';

export function createPilotRepository(db: Db) {
  return {
    async insert(pilot: NewPilot, trx: Executor = db): Promise<PilotRecord> {
      const { passwordHash, forcePasswordChange, createdAt, id, ...profile } = pilot;
      const [row] = await trx<PilotRow>('pilots')
        .insert({
          id,
          ...toColumns(profile),
          password_hash: passwordHash,
          force_password_change: forcePasswordChange ?? false,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .returning('*');
      return toRecord(row as PilotRow);
    },

    async byId(id: string, trx: Executor = db, options: { forUpdate?: boolean } = {}): Promise<PilotRecord | undefined> {
      const query = trx<PilotRow>('pilots').where({ id }).first();
      const row = await (options.forUpdate ? query.forUpdate() : query);
      return row ? toRecord(row as PilotRow) : undefined;
    },

    async byEmail(email: string, trx: Executor = db): Promise<PilotRecord | undefined> {
      const row = await trx<PilotRow>('pilots').where({ email: email.toLowerCase() }).first();
      return row ? toRecord(row as PilotRow) : undefined;
    },

    async byEmployeeId(employeeId: string, trx: Executor = db): Promise<PilotRecord | undefined> {
      const row = await trx<PilotRow>('pilots').where({ employee_id: employeeId }).first();
      return row ? toRecord(row as PilotRow) : undefined;
    },

    /** Applies profile changes and bumps the version; returns the pilot as it now is. */
    async update(id: string, changes: ProfileChanges, trx: Executor, at: Date): Promise<PilotRecord> {
      const [row] = await trx<PilotRow>('pilots')
        .where({ id })
        .update({ ...toColumns(changes), updated_at: at, version: trx.raw('version + 1') as unknown as number })
        .returning('*');
      return toRecord(row as PilotRow);
    },

    async setPassword(
      id: string,
      change: { passwordHash: string; forcePasswordChange: boolean; passwordResetAt?: Date },
      trx: Executor,
      at: Date,
    ): Promise<void> {
      await trx('pilots')
        .where({ id })
        .update({
          password_hash: change.passwordHash,
          force_password_change: change.forcePasswordChange,
          ...(change.passwordResetAt ? { password_reset_at: change.passwordResetAt } : {}),
          updated_at: at,
        });
    },

    async remove(id: string, trx: Executor): Promise<void> {
      await trx('pilots').where({ id }).delete();
    },

    async list(filters: PilotFilters = {}, trx: Executor = db): Promise<PilotRecord[]> {
      const query = trx<PilotRow>('pilots').select('*').orderBy([{ column: 'last_name' }, { column: 'first_name' }]);
      if (filters.fleet) query.where({ fleet: filters.fleet });
      if (filters.rank) query.where({ rank: filters.rank });
      if (filters.testData !== undefined) query.where({ test_data: filters.testData });
      if (filters.usualReq !== undefined) query.where({ usual_req: filters.usualReq });
      if (filters.search) {
        const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query.where((w) =>
          w
            .whereILike('first_name', pattern)
            .orWhereILike('last_name', pattern)
            .orWhereRaw(`first_name || ' ' || last_name ILIKE ?`, [pattern])
            .orWhereILike('employee_id', pattern)
            .orWhereILike('email', pattern),
        );
      }
      return (await query).map((row) => toRecord(row as PilotRow));
    },

    async count(trx: Executor = db): Promise<number> {
      const row = await trx('pilots').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async recent(limit: number, trx: Executor = db): Promise<PilotRecord[]> {
      const rows = await trx<PilotRow>('pilots').select('*').orderBy('created_at', 'desc').limit(limit);
      return rows.map((row) => toRecord(row as PilotRow));
    },
  };
}
export type PilotRepository = ReturnType<typeof createPilotRepository>;
