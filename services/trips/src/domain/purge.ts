import type { Clock, Db, Trx } from '@crewswap/kit';
import { addDays } from '@crewswap/proto';
import type { TripRepository } from '../data/trips';
import type { WhatsappGroupRepository } from '../data/whatsapp-groups';
import type { TripEvents } from './events';

/**
 * Deletes trips that ended more than `retentionDays` days before today (Europe/London), so a trip
 * that ended exactly that many days ago stays one more day. Each deletion is published. Admin's
 * cleanup schedule (its configuration, 01:00 UTC) is the only thing that asks, over request/reply.
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
  };
}
export type PurgeTrips = ReturnType<typeof createPurgeTrips>;
