import { randomUUID } from 'node:crypto';
import { HttpError, requestRpc, type Bus, type Clock, type Db, type Logger } from '@crewswap/kit';
import {
  addDays,
  CLEANUP_HISTORY_LENGTH,
  PurgeNotificationsReply,
  PurgePreviewReply,
  PurgeTripsReply,
  RPC,
  type CleanupConfig,
  type CleanupConfigBody,
  type CleanupFrequency,
  type CleanupRun,
  type CleanupRunResponse,
} from '@crewswap/proto';

/** The next 01:00 UTC after `now` that the frequency names: daily, Sunday (weekly) or the 1st (monthly). */
export function nextRun(frequency: CleanupFrequency, now: Date): Date | null {
  if (frequency === 'stopped') return null;
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 1));
  if (at <= now) at.setUTCDate(at.getUTCDate() + 1);
  if (frequency === 'weekly') while (at.getUTCDay() !== 0) at.setUTCDate(at.getUTCDate() + 1);
  if (frequency === 'monthly' && at.getUTCDate() !== 1) at.setUTCMonth(at.getUTCMonth() + 1, 1);
  return at;
}

/** The latest 01:00 UTC slot of the frequency at or before `now` (null while stopped). */
export function lastSlot(frequency: CleanupFrequency, now: Date): Date | null {
  if (frequency === 'stopped') return null;
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 1));
  if (at > now) at.setUTCDate(at.getUTCDate() - 1);
  if (frequency === 'weekly') while (at.getUTCDay() !== 0) at.setUTCDate(at.getUTCDate() - 1);
  if (frequency === 'monthly') at.setUTCDate(1);
  if (frequency === 'monthly' && at > now) at.setUTCMonth(at.getUTCMonth() - 1, 1);
  return at;
}

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
  id: row.id,
  runDate: row.run_date.toISOString(),
  runType: row.run_type,
  status: row.status,
  retentionDays: row.retention_days,
  tripsDeleted: row.trips_deleted,
  notificationsDeleted: row.notifications_deleted,
  executionTimeMs: row.execution_time_ms,
  cutoffDate: typeof row.cutoff_date === 'string' ? row.cutoff_date : row.cutoff_date.toISOString().slice(0, 10),
  errorMessage: row.error_message,
});

/**
 * Data cleanup: admin keeps the configuration and the history; the services that own the data
 * delete it when asked over request/reply (trips' and notifications' purges). Every run is
 * recorded, failures too.
 */
export function createCleanupService(deps: { db: Db; bus: Bus; clock: Clock }) {
  const { db, bus, clock } = deps;

  async function config(): Promise<CleanupConfig> {
    const row: { frequency: CleanupFrequency; retention_days: number } = await db('cleanup_config').where({ id: 1 }).first('frequency', 'retention_days');
    return { frequency: row.frequency, retentionDays: row.retention_days, nextScheduledRun: nextRun(row.frequency, clock.now())?.toISOString() ?? null };
  }

  const service = {
    config,

    async configure(body: CleanupConfigBody): Promise<CleanupConfig> {
      await db('cleanup_config').where({ id: 1 }).update({ frequency: body.frequency, retention_days: body.retentionDays, updated_at: clock.now() });
      return config();
    },

    async history(): Promise<CleanupRun[]> {
      const rows: RunRow[] = await db('cleanup_runs').orderBy('run_date', 'desc').limit(CLEANUP_HISTORY_LENGTH);
      return rows.map(toRun);
    },

    async preview(retentionDays: number): Promise<{ tripsToDelete: number }> {
      return requestRpc(bus, RPC.purgePreview, { retentionDays }, PurgePreviewReply);
    },

    /**
     * Runs a cleanup now and records it. Trips and notifications each delete their own data; a
     * failure is recorded (failed, or partial when only notifications failed after trips
     * deleted), then reported.
     */
    async run(retentionDays: number, runType = 'manual'): Promise<CleanupRunResponse> {
      const started = clock.now();
      const startedMs = Date.now();
      const record = async (status: string, counts: CleanupRunResponse, errorMessage: string | null) => {
        await db('cleanup_runs').insert({
          id: randomUUID(),
          run_date: started,
          run_type: runType,
          status,
          retention_days: retentionDays,
          trips_deleted: counts.tripsDeleted,
          notifications_deleted: counts.notificationsDeleted,
          execution_time_ms: Date.now() - startedMs,
          cutoff_date: addDays(clock.today(), -retentionDays),
          error_message: errorMessage?.slice(0, 500) ?? null,
        });
      };
      const counts: CleanupRunResponse = { tripsDeleted: 0, notificationsDeleted: 0 };
      let tripsDone = false;
      try {
        counts.tripsDeleted = (await requestRpc(bus, RPC.purgeTrips, { retentionDays }, PurgeTripsReply)).tripsDeleted;
        tripsDone = true;
        counts.notificationsDeleted = (await requestRpc(bus, RPC.purgeNotifications, { retentionDays }, PurgeNotificationsReply)).notificationsDeleted;
        await record('success', counts, null);
        return counts;
      } catch (error) {
        await record(tripsDone ? 'partial' : 'failed', counts, (error as Error).message);
        if (error instanceof HttpError) throw error;
        throw new HttpError(500, 'Cleanup failed');
      }
    },

    /**
     * Runs the latest due slot once across replicas: the slot must come after the configuration
     * was last saved (saving never fires a slot already past), and the replica that inserts the
     * slot's claim runs it. Answers whether this replica ran it.
     */
    async runScheduled(): Promise<boolean> {
      const row: { frequency: CleanupFrequency; retention_days: number; updated_at: Date } = await db('cleanup_config').where({ id: 1 }).first();
      const slot = lastSlot(row.frequency, clock.now());
      if (!slot || slot <= row.updated_at) return false;
      const claimed = await db('cleanup_schedule_claims').insert({ slot, claimed_at: clock.now() }).onConflict('slot').ignore().returning('slot');
      if (claimed.length === 0) return false;
      // A failure is already in the history; the next slot tries again.
      await service.run(row.retention_days, `scheduled_${row.frequency}`).catch(() => undefined);
      return true;
    },
  };
  return service;
}

/** Checks for a due slot every `intervalMs` (a minute is plenty for a 01:00 schedule). */
export function startCleanupScheduler(cleanup: CleanupService, log: Logger, intervalMs = 60_000): { stop(): void } {
  const timer = setInterval(() => {
    cleanup.runScheduled().catch((error: unknown) => log.warn({ err: error }, 'scheduled cleanup check failed'));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
export type CleanupService = ReturnType<typeof createCleanupService>;
