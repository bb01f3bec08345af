import { startService, type ServiceOptions } from '@crewswap/kit';
import type { NotificationsConfig } from './config';
import { createMailLog } from './data/mail-log';
import { createMailer } from './domain/mailer';
import { createSendMail } from './domain/send-mail';
import { startMailConsumer } from './events/mail-consumer';
import { migrations } from './migrations';

/**
 * Mail for now: the /api/notifications routes (src/routes), push subscriptions and preferences
 * come with the push issue and register here beside the mail consumer.
 */
export function createApp(config: NotificationsConfig, options: ServiceOptions = {}) {
  return startService({ name: 'notifications', schema: 'notifications', migrations, config, options }, async ({ runtime, clock }) => {
    const { db, bus, log } = runtime;
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: config.MAIL_OUTBOX_DIR, clock, log });
    runtime.onClose(() => mailer.close());
    if (mailer.transport === 'file') log.info({ dir: config.MAIL_OUTBOX_DIR }, 'SMTP_URL is unset: mail is written as .eml files');
    const sendMail = createSendMail({ db, mailer, mailLog: createMailLog(db), clock, log });
    const mailConsumer = await startMailConsumer({ db, bus, log, sendMail });
    // Registered after the mailer, so it stops (and finishes its message) before the mailer closes.
    runtime.onClose(() => mailConsumer.stop());
    return {};
  });
}
export type NotificationsService = Awaited<ReturnType<typeof createApp>>;
