import type { Db, Executor } from '@crewswap/kit';

/** Whether admin has declared an emergency shutdown, as its `admin.system.*` events last said. */
export function createSystemStateRepository(db: Db) {
  return {
    /**
     * Read with a share lock: a resume (which updates the row) waits for a mail being held under
     * the old state to commit, then releases it too; a mail read after the resume sees it.
     */
    async isShutdown(trx: Executor = db): Promise<boolean> {
      const row: { shutdown: boolean } | undefined = await trx('system_state').where({ id: 1 }).forShare().first('shutdown');
      return row?.shutdown === true;
    },

    /** Applies an event newest-wins; false when a newer one was already applied. */
    async set(shutdown: boolean, occurredAt: string, trx: Executor = db): Promise<boolean> {
      const updated = await trx('system_state')
        .where({ id: 1 })
        .andWhere((q) => q.whereNull('occurred_at').orWhere('occurred_at', '<=', occurredAt))
        .update({ shutdown, occurred_at: occurredAt });
      return updated > 0;
    },
  };
}
export type SystemStateRepository = ReturnType<typeof createSystemStateRepository>;
