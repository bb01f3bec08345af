import { parse, type SessionGuard } from '@crewswap/kit';
import { PushSubscriptionBody, VAPID_PUBLIC_KEY_PATH } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { createClearAllSubscriptions, createSendTestPush, createSubscribe, createUnsubscribe } from '../domain/subscriptions';

export interface SubscriptionRouteDeps {
  guard: SessionGuard;
  vapidPublicKey: string;
  subscribe: ReturnType<typeof createSubscribe>;
  unsubscribe: ReturnType<typeof createUnsubscribe>;
  sendTestPush: ReturnType<typeof createSendTestPush>;
  clearAll: ReturnType<typeof createClearAllSubscriptions>;
}

export function subscriptionRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  // The application server key the browser subscribes with; public, like any page's script.
  app.get(VAPID_PUBLIC_KEY_PATH, async () => ({ publicKey: deps.vapidPublicKey }));

  app.post('/api/notifications/subscribe', async (request, reply) => {
    const { pilotId } = deps.guard.pilot(request);
    return reply.status(201).send(await deps.subscribe.execute(pilotId, parse(PushSubscriptionBody, request.body ?? {})));
  });

  app.delete('/api/notifications/unsubscribe', async (request) => {
    const { pilotId } = deps.guard.pilot(request);
    return deps.unsubscribe.execute(pilotId);
  });

  app.post('/api/notifications/test', async (request, reply) => {
    const { pilotId } = deps.guard.pilot(request);
    return reply.status(202).send(await deps.sendTestPush.execute(pilotId));
  });

  app.delete('/api/notifications/clear-all', async (request) => {
    deps.guard.admin(request, 'manage_system');
    return deps.clearAll.execute();
  });
}
