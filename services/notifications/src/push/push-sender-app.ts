import { createServiceApp, registerRuntimeMetrics, startRuntime, systemClock, type Clock, type Logger, type Runtime, type SigningKeys } from '@crewswap/kit';
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import type { PushSenderConfig } from '../config';
import { createNotificationLog } from '../data/notification-log';
import { createSubscriptionRepository } from '../data/subscriptions';
import { startPushConsumer } from '../events/push-consumer';
import { migrations } from '../migrations';
import { createDeliverPush } from './deliver-push';
import { loadVapidKeys } from './vapid';
import { createWebPushClient } from './web-push-client';

export interface PushSenderOptions {
  clock?: Clock;
  log?: Logger;
  keys?: SigningKeys;
}

export interface PushSender {
  /** Health, readiness and metrics only: nothing routes requests here. */
  app: FastifyInstance;
  runtime: Runtime;
  close(): Promise<void>;
}

/**
 * notifications' second process: sends web push from the push work queue. It shares the
 * notifications schema (subscriptions, preferences, the log) and scales apart from the API.
 */
export async function createPushSender(config: PushSenderConfig, options: PushSenderOptions = {}): Promise<PushSender> {
  const runtime = await startRuntime({ name: 'push-sender', schema: 'notifications', migrations, config, log: options.log, keys: options.keys });
  try {
    const { db, bus, log } = runtime;
    const app = createServiceApp({ name: 'push-sender', logger: log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);
    const sent = new Counter({ name: 'notifications_push_sent_total', help: 'Web push notifications accepted by the push service', registers: [app.metrics.registry] });
    const failed = new Counter({
      name: 'notifications_push_failed_total',
      help: 'Web push notifications that failed (reason gone: the push service forgot the subscription)',
      labelNames: ['reason'] as const,
      registers: [app.metrics.registry],
    });
    const client = createWebPushClient(loadVapidKeys(config));
    runtime.onClose(() => client.close());
    const deliver = createDeliverPush({
      subscriptions: createSubscriptionRepository(db),
      notificationLog: createNotificationLog(db),
      client,
      clock: options.clock ?? systemClock,
      log,
      maxAgeMs: config.PUSH_MAX_AGE_MS,
      counters: { sent: () => sent.inc(), failed: (reason) => failed.inc({ reason }) },
    });
    const consumer = await startPushConsumer({ db, bus, log, deliver, concurrency: config.PUSH_CONCURRENCY });
    runtime.onClose(() => consumer.stop());

    let closed = false;
    return {
      app,
      runtime,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await runtime.close();
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}
