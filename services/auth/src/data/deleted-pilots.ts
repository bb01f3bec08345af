import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Fleet, Pilot, Rank } from '@crewswap/proto';

export interface DeletedPilot {
  id: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  rank: Rank;
  fleet: Fleet;
  profile: Pilot;
  deletedAt: Date;
  /** The Europe/London date of the deletion: the cooling-off period counts days from it. */
  deletedOn: string;
}

interface Row {
  id: string;
  employee_id: string;
  first_name: string;
  last_name: string;
  email: string;
  rank: Rank;
  fleet: Fleet;
  profile: Pilot;
  deleted_at: Date;
  deleted_on: string;
}

const toDeleted = (row: Row): DeletedPilot => fromRow(row, ['id', 'employee_id', 'first_name', 'last_name', 'email', 'rank', 'fleet', 'profile', 'deleted_at', 'deleted_on']);

export function createDeletedPilotRepository(db: Db) {
  return {
    async insert(profile: Pilot, deletedAt: Date, deletedOn: string, trx: Executor): Promise<void> {
      await trx('deleted_pilots')
        .insert({
          id: profile.id,
          employee_id: profile.employeeId,
          first_name: profile.firstName,
          last_name: profile.lastName,
          email: profile.email,
          rank: profile.rank,
          fleet: profile.fleet,
          profile: JSON.stringify(profile),
          deleted_at: deletedAt,
          deleted_on: deletedOn,
        })
        .onConflict('id')
        .merge();
    },

    /** The most recent deletion of an employee ID. */
    async latestByEmployeeId(employeeId: string, trx: Executor = db): Promise<DeletedPilot | undefined> {
      const row = await trx<Row>('deleted_pilots').where({ employee_id: employeeId }).orderBy('deleted_at', 'desc').first();
      return row ? toDeleted(row as Row) : undefined;
    },

    async byId(id: string, trx: Executor = db): Promise<DeletedPilot | undefined> {
      const row = await trx<Row>('deleted_pilots').where({ id }).first();
      return row ? toDeleted(row as Row) : undefined;
    },

    async list(trx: Executor = db): Promise<DeletedPilot[]> {
      const rows = await trx<Row>('deleted_pilots').select('*').orderBy('deleted_at', 'desc');
      return rows.map((row) => toDeleted(row as Row));
    },

    async remove(id: string, trx: Executor = db): Promise<void> {
      await trx('deleted_pilots').where({ id }).delete();
    },
  };
}
export type DeletedPilotRepository = ReturnType<typeof createDeletedPilotRepository>;
