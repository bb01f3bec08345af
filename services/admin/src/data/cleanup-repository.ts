import { fromRow, type Db, type Executor } from '@crewswap/kit';
import { CLEANUP_HISTORY_LENGTH, type CleanupFrequency, type CleanupRun } from '@crewswap/proto';

interface RunRow {
  id: string;
  run_date: Date;
  run_type: string;
  status: string;
  retention_days: number;
  trips_deleted: number;
  notifications_deleted: number;
  execution_time_ms: number;
  cutoff_date: string | Date;
  error_message: string | null;
}

const toRun = (row: RunRow): CleanupRun => ({
  ...fromRow(row, ['id', 'run_type', 'status', 'retention_days', 'trips_deleted', 'notifications_deleted', 'execution_time_ms', 'error_message']),
  runDate: row.run_date.toISOString(),
  cutoffDate: typeof row.cutoff_date === 'string' ? row.cutoff_date : row.cutoff_date.toISOString().slice(0, 10),
});

export interface CleanupSchedule {
  frequency: CleanupFrequency;
  retentionDays: number;
  updatedAt: Date;
}

export interface NewCleanupRun {
  id: string;
  runDate: Date;
  runType: string;
  status: string;
  retentionDays: number;
  tripsDeleted: number;
  notificationsDeleted: number;
  executionTimeMs: number;
  cutoffDate: string;
  errorMessage: string | null;
}

/** The cleanup configuration (one row), its run history and the claims of scheduled slots. */
export function createCleanupRepository(db: Db) {
  return {
    async schedule(trx: Executor = db): Promise<CleanupSchedule> {
      const row: { frequency: CleanupFrequency; retention_days: number; updated_at: Date } = await trx('cleanup_config').where({ id: 1 }).first();
      return { frequency: row.frequency, retentionDays: row.retention_days, updatedAt: row.updated_at };
    },

    async setSchedule(frequency: CleanupFrequency, retentionDays: number, at: Date, trx: Executor = db): Promise<void> {
      await trx('cleanup_config').where({ id: 1 }).update({ frequency, retention_days: retentionDays, updated_at: at });
    },

    async history(trx: Executor = db): Promise<CleanupRun[]> {
      const rows: RunRow[] = await trx('cleanup_runs').orderBy('run_date', 'desc').limit(CLEANUP_HISTORY_LENGTH);
      return rows.map(toRun);
    },

    async recordRun(run: NewCleanupRun, trx: Executor = db): Promise<void> {
      await trx('cleanup_runs').insert({
        id: run.id,
        run_date: run.runDate,
        run_type: run.runType,
        status: run.status,
        retention_days: run.retentionDays,
        trips_deleted: run.tripsDeleted,
        notifications_deleted: run.notificationsDeleted,
        execution_time_ms: run.executionTimeMs,
        cutoff_date: run.cutoffDate,
        error_message: run.errorMessage,
      });
    },

    /** Claims a scheduled slot; answers whether this caller got it (one replica does). */
    async claimSlot(slot: Date, at: Date, trx: Executor = db): Promise<boolean> {
      const claimed = await trx('cleanup_schedule_claims').insert({ slot, claimed_at: at }).onConflict('slot').ignore().returning('slot');
      return claimed.length > 0;
    },
  };
}
export type CleanupRepository = ReturnType<typeof createCleanupRepository>;
