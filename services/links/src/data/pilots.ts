import type { Db, Executor } from '@crewswap/kit';
import type { Pilot } from '@crewswap/proto';

/** The names of pilots, from auth's events, for a link's "last edited by". */
export function createPilotRepository(db: Db) {
  return {
    async findName(id: string, trx: Executor = db): Promise<string | undefined> {
      const row: { first_name: string; last_name: string } | undefined = await trx('pilots').where({ id, deleted: false }).first();
      return row && `${row.first_name} ${row.last_name}`;
    },

    /** Applies a profile unless a newer event was applied already; answers whether it was. */
    async applyProfile(pilot: Pilot, occurredAt: string, trx: Executor = db): Promise<boolean> {
      const applied = await trx('pilots')
        .insert({ id: pilot.id, first_name: pilot.firstName, last_name: pilot.lastName, occurred_at: occurredAt, deleted: false })
        .onConflict('id')
        .merge()
        .where('pilots.occurred_at', '<=', occurredAt)
        .returning('id');
      return applied.length > 0;
    },

    /** Forgets the name (links they edited show 'Pilot {id}') unless a newer profile was applied. */
    async applyDeletion(pilotId: string, occurredAt: string, trx: Executor = db): Promise<boolean> {
      const applied = await trx('pilots')
        .insert({ id: pilotId, first_name: '', last_name: '', occurred_at: occurredAt, deleted: true })
        .onConflict('id')
        .merge()
        .where('pilots.occurred_at', '<=', occurredAt)
        .returning('id');
      return applied.length > 0;
    },
  };
}
export type PilotRepository = ReturnType<typeof createPilotRepository>;
