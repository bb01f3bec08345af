import type { Db, Executor } from '@crewswap/kit';

/** The emergency-shutdown state as admin last announced it (one row). */
export function createSystemStateRepository(db: Db) {
  return {
    async isShutdown(trx: Executor = db): Promise<boolean> {
      const row = await trx('system_state').where({ id: 1 }).first('shutdown');
      return row?.shutdown === true;
    },
    async set(shutdown: boolean, reason: string | null, at: Date, trx: Executor = db): Promise<void> {
      await trx('system_state').where({ id: 1 }).update({ shutdown, reason, updated_at: at });
    },
  };
}
export type SystemStateRepository = ReturnType<typeof createSystemStateRepository>;
