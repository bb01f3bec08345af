import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Pilot } from '@crewswap/proto';

export interface KnownPilot {
  id: string;
  email: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  base: string;
}

interface PilotRow {
  id: string;
  email: string;
  employee_id: string;
  first_name: string;
  last_name: string;
  base: string;
}

const toPilot = (row: PilotRow): KnownPilot => fromRow(row, ['id', 'email', 'employee_id', 'first_name', 'last_name', 'base']);

export function createPilotRepository(db: Db) {
  return {
    async find(id: string, trx: Executor = db): Promise<KnownPilot | undefined> {
      const row: PilotRow | undefined = await trx('pilots').where({ id, deleted: false }).first();
      return row && toPilot(row);
    },

    async findByEmail(email: string, trx: Executor = db): Promise<KnownPilot | undefined> {
      const row: PilotRow | undefined = await trx('pilots').whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).where({ deleted: false }).first();
      return row && toPilot(row);
    },

    /** Newest event wins: a late or repeated event changes nothing. */
    async applyProfile(pilot: Pilot, occurredAt: string, trx: Executor = db): Promise<void> {
      await trx('pilots')
        .insert({
          id: pilot.id,
          email: pilot.email,
          employee_id: pilot.employeeId,
          first_name: pilot.firstName,
          last_name: pilot.lastName,
          base: pilot.base,
          deleted: false,
          occurred_at: occurredAt,
        })
        .onConflict('id')
        .merge()
        .where('pilots.occurred_at', '<=', occurredAt);
    },

    async applyDeletion(pilotId: string, employeeId: string, occurredAt: string, trx: Executor = db): Promise<void> {
      await trx('pilots')
        .insert({ id: pilotId, email: '', employee_id: employeeId, first_name: '', last_name: '', base: 'LHR', deleted: true, occurred_at: occurredAt })
        .onConflict('id')
        .merge(['deleted', 'occurred_at'])
        .where('pilots.occurred_at', '<=', occurredAt);
    },
  };
}
export type PilotRepository = ReturnType<typeof createPilotRepository>;
