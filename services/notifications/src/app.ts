import { createServiceApp, registerRuntimeMetrics, startRuntime, systemClock, type Clock, type Logger, type Runtime, type SigningKeys } from '@crewswap/kit';
import type { FastifyInstance } from 'fastify';
import type { NotificationsConfig } from './config';
import { startMailConsumer } from './mail/mail-consumer';
import { createMailLog } from './mail/mail-log';
import { createMailer } from './mail/mailer';
import { createSendMail } from './mail/send-mail';
import { createNotificationLog } from './data/notification-log';
import { createPurgeNotifications } from './domain/purge';
import { servePurgeRpc } from './events/purge-rpc';
import { migrations } from './migrations';

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
 * Mail for now: the /api/notifications routes (src/routes), push subscriptions and preferences
 * (src/push) come with the push issue and register here beside the mail consumer.
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

    const purgeRpc = servePurgeRpc({ bus, log, purge: createPurgeNotifications({ log: createNotificationLog(db), clock }) });
    runtime.onClose(() => purgeRpc.unsubscribe());

    const app = createServiceApp({ name: 'notifications', logger: log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);

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
