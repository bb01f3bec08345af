import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '@crewswap/kit';
import type { PushSubscriptionBody } from '@crewswap/proto';

export function createSubscriptionRepository(db: Db) {
  return {
    /** Saves the browser's subscription for the pilot; the same endpoint again replaces its keys and owner. */
    async save(pilotId: string, body: PushSubscriptionBody, trx: Executor = db): Promise<void> {
      await trx('push_subscriptions')
        .insert({ id: randomUUID(), pilot_id: pilotId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth })
        .onConflict('endpoint')
        .merge(['pilot_id', 'p256dh', 'auth']);
    },
    async countForPilot(pilotId: string, trx: Executor = db): Promise<number> {
      const row = await trx('push_subscriptions').where({ pilot_id: pilotId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async removeForPilot(pilotId: string, trx: Executor = db): Promise<number> {
      return trx('push_subscriptions').where({ pilot_id: pilotId }).delete();
    },
    async removeAll(trx: Executor = db): Promise<number> {
      return trx('push_subscriptions').delete();
    },
  };
}
export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;
