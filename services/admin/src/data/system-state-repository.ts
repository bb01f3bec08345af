import type { Db, Executor } from '@crewswap/kit';

/** Whether the system is shut down (one row), and who changed it last. */
export function createSystemStateRepository(db: Db) {
  return {
    async isShutdown(trx: Executor = db): Promise<boolean> {
      const row: { is_shutdown: boolean } | undefined = await trx('system_state').where({ id: 1 }).first('is_shutdown');
      return row?.is_shutdown === true;
    },

    async set(state: { isShutdown: boolean; reason: string | null; changedBy: string; at: Date }, trx: Executor = db): Promise<void> {
      await trx('system_state').where({ id: 1 }).update({ is_shutdown: state.isShutdown, reason: state.reason, changed_by: state.changedBy, updated_at: state.at });
    },
  };
}
export type SystemStateRepository = ReturnType<typeof createSystemStateRepository>;
