import { startPeriodic, startService, type ServiceOptions } from '@crewswap/kit';
import { Counter } from 'prom-client';
import type { PushSenderConfig } from '../config';
import { createHeldPushes } from '../data/held-pushes';
import { createNotificationLog } from '../data/notification-log';
import { createSubscriptionRepository } from '../data/subscriptions';
import { tellBellUpdated } from '../events/bell-updated';
import { startPushConsumer } from '../events/push-consumer';
import { migrations } from '../migrations';
import { createDeliverPush } from './deliver-push';
import { createReleaseHeld } from './release-held';
import { loadVapidKeys } from './vapid';
import { createWebPushClient } from './web-push-client';

/**
 * notifications' second process: sends web push from the push work queue. It shares the
 * notifications schema (subscriptions, preferences, the log) and scales apart from the API; its
 * app serves only health, readiness and metrics.
 */
export function createPushSender(config: PushSenderConfig, options: ServiceOptions = {}) {
  return startService({ name: 'push-sender', schema: 'notifications', migrations, config, options }, async ({ app, runtime, clock }) => {
    const { db, bus, log } = runtime;
    const sent = new Counter({ name: 'notifications_push_sent_total', help: 'Web push notifications accepted by the push service', registers: [app.metrics.registry] });
    const failed = new Counter({
      name: 'notifications_push_failed_total',
      help: 'Web push notifications that failed (reason gone: the push service forgot the subscription)',
      labelNames: ['reason'] as const,
      registers: [app.metrics.registry],
    });
    const client = createWebPushClient(loadVapidKeys(config));
    runtime.onClose(() => client.close());
    const held = createHeldPushes(db);
    const deliver = createDeliverPush({
      subscriptions: createSubscriptionRepository(db),
      notificationLog: createNotificationLog(db),
      held,
      client,
      clock,
      log,
      maxAgeMs: config.PUSH_MAX_AGE_MS,
      counters: { sent: () => sent.inc(), failed: (reason) => failed.inc({ reason }) },
      bellWritten: (pilotId, reason, at) => tellBellUpdated({ bus, log }, pilotId, at, reason),
    });
    const consumer = await startPushConsumer({ db, bus, log, deliver, concurrency: config.PUSH_CONCURRENCY });
    runtime.onClose(() => consumer.stop());
    const releaseHeld = createReleaseHeld({ db, held, outbox: runtime.outbox, clock });
    const releases = startPeriodic({ name: 'release pushes held in quiet hours', log, intervalMs: 60_000, task: () => releaseHeld.execute() });
    runtime.onClose(() => releases.stop());
    return { releaseHeld };
  });
}
export type PushSender = Awaited<ReturnType<typeof createPushSender>>;
