import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import { API, VAPID_PUBLIC_KEY_PATH } from '@crewswap/proto';
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
  route(API.vapidPublicKey, { auth: 'none' }, async () => ({ publicKey: deps.vapidPublicKey }));

  route(API.subscribePush, { auth: pilot, status: 201 }, async ({ session, body }) =>
    deps.subscribe.execute(session.pilotId, body),
  );

  route(API.unsubscribePush, { auth: pilot }, async ({ session }) => deps.unsubscribe.execute(session.pilotId));

  route(API.testPush, { auth: pilot, status: 202 }, async ({ session }) => deps.sendTestPush.execute(session.pilotId));

  route(API.clearAllPushSubscriptions, { auth: adminWith(deps.guard, 'manage_system') }, async () =>
    deps.clearAll.execute(),
  );
}
