import { createServiceApp, registerRuntimeMetrics, startRuntime, systemClock, type Clock, type Logger, type Runtime, type SigningKeys } from '@crewswap/kit';
import type { FastifyInstance } from 'fastify';
import type { NotificationsConfig } from './config';
import { startMailConsumer } from './mail/mail-consumer';
import { createMailLog } from './mail/mail-log';
import { createMailer } from './mail/mailer';
import { createSendMail } from './mail/send-mail';
import { migrations } from './migrations';
import { createPreferenceRepository } from './data/preferences';
import { createSubscriptionRepository } from './data/subscriptions';
import { createGetPreferences, createUpdatePreferences } from './domain/preferences';
import { createClearAllSubscriptions, createSendTestPush, createSubscribe, createUnsubscribe } from './domain/subscriptions';
import { startLogPurgeRpc } from './events/purge-log';
import { loadVapidKeys } from './push/vapid';
import { preferenceRoutes } from './routes/preferences';
import { subscriptionRoutes } from './routes/subscriptions';

export interface NotificationsAppOptions {
  clock?: Clock;
  log?: Logger;
  keys?: SigningKeys;
}

export interface NotificationsService {
  app: FastifyInstance;
  runtime: Runtime;
  close(): Promise<void>;
}

/**
 * Mail (sent here), and the pilot's side of push: preferences, subscriptions, test pushes. The
 * pushes themselves are sent by the second process, push-sender (src/push-sender.ts).
 */
export async function createApp(config: NotificationsConfig, options: NotificationsAppOptions = {}): Promise<NotificationsService> {
  const runtime = await startRuntime({ name: 'notifications', schema: 'notifications', migrations, config, log: options.log, keys: options.keys });
  try {
    const clock = options.clock ?? systemClock;
    const { db, bus, log } = runtime;

    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: config.MAIL_OUTBOX_DIR, clock, log });
    runtime.onClose(() => mailer.close());
    if (mailer.transport === 'file') log.info({ dir: config.MAIL_OUTBOX_DIR }, 'SMTP_URL is unset: mail is written as .eml files');
    const sendMail = createSendMail({ db, mailer, mailLog: createMailLog(db), clock, log });
    const mailConsumer = await startMailConsumer({ db, bus, log, sendMail });
    // Registered after the mailer, so it stops (and finishes its message) before the mailer closes.
    runtime.onClose(() => mailConsumer.stop());

    const app = createServiceApp({ name: 'notifications', logger: log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);

    const { guard, outbox } = runtime;
    const preferences = createPreferenceRepository(db);
    const subscriptions = createSubscriptionRepository(db);
    const vapid = loadVapidKeys(config);
    preferenceRoutes(app, {
      guard,
      getPreferences: createGetPreferences({ preferences }),
      updatePreferences: createUpdatePreferences({ db, preferences, outbox, clock }),
    });
    subscriptionRoutes(app, {
      guard,
      vapidPublicKey: vapid.publicKey,
      subscribe: createSubscribe({ subscriptions, endpointPolicy: { hosts: config.PUSH_ENDPOINT_HOSTS, allowLocal: config.PUSH_ALLOW_LOCAL_ENDPOINTS } }),
      unsubscribe: createUnsubscribe({ subscriptions }),
      sendTestPush: createSendTestPush({ db, subscriptions, outbox, productName: config.PRODUCT_NAME }),
      clearAll: createClearAllSubscriptions({ subscriptions }),
    });
    const purgeRpc = startLogPurgeRpc({ db, bus, log, clock });
    runtime.onClose(() => purgeRpc.unsubscribe());

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
