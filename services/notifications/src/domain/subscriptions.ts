import { randomUUID } from 'node:crypto';
import { badRequest, type Db, type Outbox } from '@crewswap/kit';
import { NOTIFICATION_MESSAGES, SUBJECTS, type PushSubscriptionBody } from '@crewswap/proto';
import type { SubscriptionRepository } from '../data/subscriptions';
import { checkEndpoint } from './endpoints';

export function createSubscribe(deps: { subscriptions: SubscriptionRepository; endpointPolicy: { hosts: readonly string[]; allowLocal: boolean } }) {
  return {
    async execute(pilotId: string, body: PushSubscriptionBody): Promise<{ message: string }> {
      checkEndpoint(body.endpoint, deps.endpointPolicy);
      await deps.subscriptions.save(pilotId, body);
      return { message: NOTIFICATION_MESSAGES.subscribed };
    },
  };
}

/** The route takes no body (the spec's row lists none): every device of the pilot stops getting pushes. */
export function createUnsubscribe(deps: { subscriptions: SubscriptionRepository }) {
  return {
    async execute(pilotId: string): Promise<{ message: string; removed: number }> {
      const removed = await deps.subscriptions.removeForPilot(pilotId);
      return { message: NOTIFICATION_MESSAGES.unsubscribed, removed };
    },
  };
}

export function createClearAllSubscriptions(deps: { subscriptions: SubscriptionRepository }) {
  return {
    async execute(): Promise<{ message: string; deleted: number }> {
      return { message: NOTIFICATION_MESSAGES.cleared, deleted: await deps.subscriptions.removeAll() };
    },
  };
}

/** Queues a test push to the pilot's devices; push-sender sends it like any other. */
export function createSendTestPush(deps: { db: Db; subscriptions: SubscriptionRepository; outbox: Outbox; productName: string }) {
  return {
    async execute(pilotId: string): Promise<{ message: string; subscriptions: number }> {
      return deps.db.transaction(async (trx) => {
        const subscriptions = await deps.subscriptions.countForPilot(pilotId, trx);
        if (subscriptions === 0) throw badRequest(NOTIFICATION_MESSAGES.noSubscription);
        await deps.outbox.write(trx, SUBJECTS.sendPush, {
          pilotId,
          kind: 'test',
          title: `${deps.productName} test notification`,
          body: 'Push notifications are working on this device.',
          url: '/',
          dedupeKey: `test:${randomUUID()}`,
        });
        return { message: NOTIFICATION_MESSAGES.testQueued, subscriptions };
      });
    },
  };
}
