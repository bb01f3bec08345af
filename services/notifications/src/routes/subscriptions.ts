import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import {
  ClearAllSubscriptionsResponse,
  PushSubscriptionBody,
  SubscribeResponse,
  TestPushResponse,
  UnsubscribeResponse,
  VAPID_PUBLIC_KEY_PATH,
  VapidPublicKeyResponse,
} from '@crewswap/proto';
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
  const route = routes(app);
  const pilot = deps.guard.pilot;

  // The application server key the browser subscribes with; public, like any page's script.
  route.get(VAPID_PUBLIC_KEY_PATH, { auth: 'none', response: VapidPublicKeyResponse }, async () => ({ publicKey: deps.vapidPublicKey }));

  route.post('/api/notifications/subscribe', { auth: pilot, body: PushSubscriptionBody, response: SubscribeResponse, status: 201 }, async ({ session, body }) =>
    deps.subscribe.execute(session.pilotId, body),
  );

  route.delete('/api/notifications/unsubscribe', { auth: pilot, response: UnsubscribeResponse }, async ({ session }) => deps.unsubscribe.execute(session.pilotId));

  route.post('/api/notifications/test', { auth: pilot, response: TestPushResponse, status: 202 }, async ({ session }) => deps.sendTestPush.execute(session.pilotId));

  route.delete('/api/notifications/clear-all', { auth: adminWith(deps.guard, 'manage_system'), response: ClearAllSubscriptionsResponse }, async () =>
    deps.clearAll.execute(),
  );
}
