import type { Clock, Db, Trx } from '@crewswap/kit';
import { addDays } from '@crewswap/proto';
import type { Logger } from 'pino';
import type { TripRepository } from '../data/trips';
import type { WhatsappGroupRepository } from '../data/whatsapp-groups';
import type { TripEvents } from './events';

/** Any fixed number: the key of the lock that lets one replica run the scheduled purge. */
const PURGE_LOCK_KEY = 7_120_330;

/**
 * Deletes trips that ended more than `retentionDays` days before today (Europe/London), so a trip
 * that ended exactly that many days ago stays one more day. Each deletion is published.
 */
export function createPurgeTrips(deps: { db: Db; trips: TripRepository; groups: WhatsappGroupRepository; events: TripEvents; clock: Clock }) {
  const { db, trips, groups, events, clock } = deps;
  const cutoff = (retentionDays: number) => addDays(clock.today(), -retentionDays);

  async function purgeIn(trx: Trx, retentionDays: number): Promise<number> {
    const removed = await trips.deleteWhere((query) => query.where('end_date', '<', cutoff(retentionDays)), trx);
    for (const { trip, version } of removed) await events.deleted(trx, trip, version);
    // A group lives as long as its trip: it goes with the trips of its flight and dates.
    await groups.removeEndedBefore(cutoff(retentionDays), trx);
    return removed.length;
  }

  return {
    async execute(input: { retentionDays: number }): Promise<{ tripsDeleted: number }> {
      return { tripsDeleted: await db.transaction((trx) => purgeIn(trx, input.retentionDays)) };
    },

    async preview(input: { retentionDays: number }): Promise<{ tripsToDelete: number }> {
      return { tripsToDelete: await trips.countEndedBefore(cutoff(input.retentionDays)) };
    },

    /**
     * The daily run: once per London day, by whichever replica takes the lock first; the others
     * skip. Answers the number deleted, or null when it was not this replica's turn.
     */
    async runDaily(retentionDays: number): Promise<number | null> {
      return db.transaction(async (trx) => {
        const { rows } = (await trx.raw('SELECT pg_try_advisory_xact_lock(?) AS locked', [PURGE_LOCK_KEY])) as { rows: { locked: boolean }[] };
        if (!rows[0]?.locked) return null;
        const today = clock.today();
        if (await trips.purgeRunOn(today, trx)) return null;
        const deleted = await purgeIn(trx, retentionDays);
        await trips.recordPurgeRun(today, deleted, trx);
        return deleted;
      });
    },
  };
}
export type PurgeTrips = ReturnType<typeof createPurgeTrips>;

/** Looks every `intervalMs` whether today's purge has run, and runs it if not. */
export function startPurgeScheduler(options: { purge: PurgeTrips; retentionDays: number; intervalMs: number; log: Logger }): { stop(): Promise<void> } {
  const { purge, log } = options;
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = purge
      .runDaily(options.retentionDays)
      .then((deleted) => {
        if (deleted !== null) log.info({ tripsDeleted: deleted }, 'daily trip purge done');
      })
      .catch((error: unknown) => log.error({ err: error }, 'daily trip purge failed; will retry'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
