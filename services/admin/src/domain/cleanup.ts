import { randomUUID } from 'node:crypto';
import { HttpError, requestRpc, type Bus, type Clock, type Logger } from '@crewswap/kit';
import { addDays, PurgeNotificationsReply, PurgeTripsReply, RPC, type CleanupConfig, type CleanupConfigBody, type CleanupFrequency, type CleanupRunResponse } from '@crewswap/proto';
import type { CleanupRepository } from '../data/cleanup-repository';

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

/** The configuration as the console shows it, with when it next runs. */
export async function cleanupConfig(cleanups: CleanupRepository, clock: Clock): Promise<CleanupConfig> {
  const { frequency, retentionDays } = await cleanups.schedule();
  return { frequency, retentionDays, nextScheduledRun: nextRun(frequency, clock.now())?.toISOString() ?? null };
}

export function createConfigureCleanup(deps: { cleanups: CleanupRepository; clock: Clock }) {
  return {
    async execute(input: CleanupConfigBody): Promise<CleanupConfig> {
      await deps.cleanups.setSchedule(input.frequency, input.retentionDays, deps.clock.now());
      return cleanupConfig(deps.cleanups, deps.clock);
    },
  };
}

/**
 * Data cleanup: admin keeps the configuration and the history; the services that own the data
 * delete it when asked over request/reply (trips' and notifications' purges). Every run is
 * recorded, failures too: failed, or partial when trips deleted and notifications then failed.
 */
export function createRunCleanup(deps: { bus: Bus; cleanups: CleanupRepository; clock: Clock }) {
  const { bus, cleanups, clock } = deps;
  return {
    /** Runs a cleanup now and records it; a failure is recorded, then reported. */
    async execute(input: { retentionDays: number; runType?: string }): Promise<CleanupRunResponse> {
      const { retentionDays, runType = 'manual' } = input;
      const started = clock.now();
      const startedMs = Date.now();
      const record = (status: string, counts: CleanupRunResponse, errorMessage: string | null) =>
        cleanups.recordRun({
          id: randomUUID(),
          runDate: started,
          runType,
          status,
          retentionDays,
          tripsDeleted: counts.tripsDeleted,
          notificationsDeleted: counts.notificationsDeleted,
          executionTimeMs: Date.now() - startedMs,
          cutoffDate: addDays(clock.today(), -retentionDays),
          errorMessage: errorMessage?.slice(0, 500) ?? null,
        });
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
  };
}
export type RunCleanup = ReturnType<typeof createRunCleanup>;

/**
 * Runs the latest due slot once across replicas: the slot must come after the configuration was
 * last saved (saving never fires a slot already past), and the replica that claims the slot runs
 * it. Answers whether this replica ran it.
 */
export function createRunScheduledCleanup(deps: { cleanups: CleanupRepository; runCleanup: RunCleanup; clock: Clock }) {
  const { cleanups, runCleanup, clock } = deps;
  return {
    async execute(): Promise<boolean> {
      const schedule = await cleanups.schedule();
      const slot = lastSlot(schedule.frequency, clock.now());
      if (!slot || slot <= schedule.updatedAt) return false;
      if (!(await cleanups.claimSlot(slot, clock.now()))) return false;
      // A failure is already in the history; the next slot tries again.
      await runCleanup.execute({ retentionDays: schedule.retentionDays, runType: `scheduled_${schedule.frequency}` }).catch(() => undefined);
      return true;
    },
  };
}
export type RunScheduledCleanup = ReturnType<typeof createRunScheduledCleanup>;

/** Checks for a due slot every `intervalMs` (a minute is plenty for a 01:00 schedule). */
export function startCleanupScheduler(runScheduled: RunScheduledCleanup, log: Logger, intervalMs = 60_000): { stop(): void } {
  const timer = setInterval(() => {
    runScheduled.execute().catch((error: unknown) => log.warn({ err: error }, 'scheduled cleanup check failed'));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
