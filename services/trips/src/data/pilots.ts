import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Fleet, Pilot, Rank } from '@crewswap/proto';

/** What the trip rules need to know about a pilot. */
export interface DirectoryPilot {
  id: string;
  rank: Rank;
  fleet: Fleet;
  ltc: boolean;
  testData: boolean;
  searchDayRange: number | null;
  /** Master Roster on. */
  usualReq: boolean;
  firstName: string;
  lastName: string;
}

interface PilotRow {
  id: string;
  rank: Rank;
  fleet: Fleet;
  ltc: boolean;
  test_data: boolean;
  search_day_range: number | null;
  usual_req: boolean;
  first_name: string;
  last_name: string;
  occurred_at: Date;
  deleted: boolean;
}

export function createPilotRepository(db: Db) {
  return {
    async find(id: string, trx: Executor = db, forUpdate = false): Promise<DirectoryPilot | undefined> {
      const query = trx('pilots').where({ id, deleted: false }).first();
      const row: PilotRow | undefined = await (forUpdate ? query.forUpdate() : query);
      return row && fromRow(row, ['id', 'rank', 'fleet', 'ltc', 'test_data', 'search_day_range', 'usual_req', 'first_name', 'last_name']);
    },

    /**
     * Applies a profile unless a newer event (profile or deletion) was applied already, so events
     * that arrive out of order or again change nothing. Answers whether it was applied.
     */
    async applyProfile(pilot: Pilot, occurredAt: string, trx: Executor = db): Promise<boolean> {
      const row = {
        id: pilot.id,
        employee_id: pilot.employeeId,
        first_name: pilot.firstName,
        last_name: pilot.lastName,
        rank: pilot.rank,
        fleet: pilot.fleet,
        base: pilot.base,
        apic: pilot.apic,
        ltc: pilot.ltc,
        usual_req: pilot.usualReq,
        test_data: pilot.testData,
        search_day_range: pilot.searchDayRange,
        profile: JSON.stringify(pilot),
        occurred_at: occurredAt,
        deleted: false,
      };
      const applied = await trx('pilots')
        .insert(row)
        .onConflict('id')
        .merge()
        .where('pilots.occurred_at', '<=', occurredAt)
        .returning('id');
      return applied.length > 0;
    },

    /** Marks the pilot deleted unless a newer profile event was applied. Answers whether it was. */
    async applyDeletion(pilotId: string, employeeId: string, occurredAt: string, trx: Executor = db): Promise<boolean> {
      const tombstone = {
        id: pilotId,
        employee_id: employeeId,
        first_name: '',
        last_name: '',
        rank: 'FO',
        fleet: 'A330',
        base: 'LHR',
        apic: false,
        ltc: false,
        usual_req: false,
        test_data: false,
        profile: '{}',
        occurred_at: occurredAt,
        deleted: true,
      };
      const applied = await trx('pilots')
        .insert(tombstone)
        .onConflict('id')
        .merge(['deleted', 'occurred_at'])
        .where('pilots.occurred_at', '<=', occurredAt)
        .returning('id');
      return applied.length > 0;
    },

    async clear(trx: Executor = db): Promise<void> {
      await trx('pilots').delete();
    },
  };
}
export type PilotRepository = ReturnType<typeof createPilotRepository>;
