import { followPilots, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import type { Logger } from 'pino';
import type { PilotRepository } from '../data/pilots';
import type { SubscriptionRepository } from '../data/subscriptions';

/** roster-ingest's projection of auth's pilots, to know who sent a mail and where they are based. */
export function startPilotDirectory(deps: { db: Db; bus: Bus; log: Logger; pilots: PilotRepository; subscriptions: SubscriptionRepository }): Promise<RunningConsumer> {
  const { pilots, subscriptions } = deps;
  return followPilots({
    ...deps,
    durable: 'roster_ingest_pilot_directory',
    profile: (pilot, occurredAt, trx) => pilots.applyProfile(pilot, occurredAt, trx),
    deleted: async ({ pilotId, employeeId }, occurredAt, trx) => {
      await pilots.applyDeletion(pilotId, employeeId, occurredAt, trx);
      // A deleted pilot's roster address is never fetched again.
      await subscriptions.remove(pilotId, trx);
    },
  });
}
