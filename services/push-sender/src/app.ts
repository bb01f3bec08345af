import { loadVapidKeys, startPeriodic, startService, type ServiceOptions } from '@crewswap/kit';
import { Counter } from 'prom-client';
import type { Config } from './config';
import { createHeldPushes } from './data/held-pushes';
import { createNotificationLog } from './data/notification-log';
import { createSubscriptionReader } from './data/subscriptions';
import { createDeliverPush } from './domain/deliver-push';
import { createReleaseHeld } from './domain/release-held';
import { createWebPushClient } from './domain/web-push-client';
import { tellAlertWritten } from './events/bell-updated';
import { startPushConsumer } from './events/push-consumer';

/**
 * The notifications schema's tables push-sender reads and writes. notifications owns and
 * migrates them (docs/DECISIONS.md): push-sender waits for them and migrates nothing.
 */
export const NOTIFICATIONS_TABLES = ['push_subscriptions', 'notification_preferences', 'notification_log', 'held_pushes'] as const;

/**
 * Sends web push from the push work queue, and releases what quiet hours held. It scales apart
 * from notifications' API; its app serves only health, readiness and metrics.
 */
export function createApp(config: Config, options: ServiceOptions = {}) {
  const migrations = { ownedBy: 'notifications', tables: NOTIFICATIONS_TABLES, waitMs: config.SCHEMA_WAIT_MS };
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
      subscriptions: createSubscriptionReader(db),
      notificationLog: createNotificationLog(db),
      held,
      client,
      clock,
      log,
      maxAgeMs: config.PUSH_MAX_AGE_MS,
      counters: { sent: () => sent.inc(), failed: (reason) => failed.inc({ reason }) },
      bellWritten: (pilotId, reason, at) => tellAlertWritten({ bus, log }, pilotId, reason, at),
    });
    const consumer = await startPushConsumer({ db, bus, log, deliver, concurrency: config.PUSH_CONCURRENCY });
    runtime.onClose(() => consumer.stop());
    const releaseHeld = createReleaseHeld({ db, held, outbox: runtime.outbox, clock });
    const releases = startPeriodic({ name: 'release pushes held in quiet hours', log, intervalMs: 60_000, task: () => releaseHeld.execute() });
    runtime.onClose(() => releases.stop());
    return { releaseHeld };
  });
}
export type PushSender = Awaited<ReturnType<typeof createApp>>;
