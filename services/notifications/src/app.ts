import { loadVapidKeys, startService, type ServiceOptions } from '@crewswap/kit';
import type { NotificationsConfig } from './config';
import { createBell } from './data/bell';
import { createMailLog } from './data/mail-log';
import { createPreferenceRepository } from './data/preferences';
import { createSubscriptionRepository } from './data/subscriptions';
import { createDigestLinks } from './domain/digest-links';
import { createMailer, mailFrom } from './domain/mailer';
import { createGetPreferences, createUpdatePreferences } from './domain/preferences';
import { createSendMail } from './domain/send-mail';
import { createClearAllSubscriptions, createSendTestPush, createSubscribe, createUnsubscribe } from './domain/subscriptions';
import { startMailConsumer } from './events/mail-consumer';
import { createSwapNotices } from './domain/swap-notices';
import { startSwapConsumer } from './events/swap-consumer';
import { startLogPurgeRpc } from './events/purge-log';
import { migrations } from './migrations';
import { bellRoutes } from './routes/bell';
import { digestRoutes } from './routes/digest';
import { preferenceRoutes } from './routes/preferences';
import { subscriptionRoutes } from './routes/subscriptions';

/**
 * Mail (sent here), and the pilot's side of push: preferences, subscriptions, test pushes, the
 * bell. The pushes themselves are sent by push-sender (services/push-sender), which works in this
 * service's schema: the migrations here make the tables it uses.
 */
export function createApp(config: NotificationsConfig, options: ServiceOptions = {}) {
  return startService({ name: 'notifications', schema: 'notifications', migrations, config, options }, async ({ app, runtime, clock, settings }) => {
    const { db, bus, log, guard, outbox } = runtime;
    const outgoing = settings();
    const from = async () => mailFrom(await outgoing.get('outgoing_email'), config.PRODUCT_NAME, config.MAIL_FROM);
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from, outboxDir: config.MAIL_OUTBOX_DIR, clock, log });
    runtime.onClose(() => mailer.close());
    if (mailer.transport === 'file') log.info({ dir: config.MAIL_OUTBOX_DIR }, 'SMTP_URL is unset: mail is written as .eml files');
    const sendMail = createSendMail({ db, mailer, mailLog: createMailLog(db), clock, log });
    const vapid = loadVapidKeys(config);
    const digestLinks = createDigestLinks({ secret: vapid.privateKey, origin: config.APP_ORIGIN });
    const mailConsumer = await startMailConsumer({ db, bus, log, sendMail, digestLinks });
    // Registered after the mailer, so it stops (and finishes its message) before the mailer closes.
    runtime.onClose(() => mailConsumer.stop());

    const preferences = createPreferenceRepository(db);
    const subscriptions = createSubscriptionRepository(db);
    const updatePreferences = createUpdatePreferences({ db, preferences, outbox, clock });
    preferenceRoutes(app, { guard, getPreferences: createGetPreferences({ preferences }), updatePreferences });
    digestRoutes(app, { links: digestLinks, updatePreferences, product: config.PRODUCT_NAME });
    subscriptionRoutes(app, {
      guard,
      vapidPublicKey: vapid.publicKey,
      subscribe: createSubscribe({ subscriptions, endpointPolicy: { hosts: config.PUSH_ENDPOINT_HOSTS, allowLocal: config.PUSH_ALLOW_LOCAL_ENDPOINTS } }),
      unsubscribe: createUnsubscribe({ subscriptions }),
      sendTestPush: createSendTestPush({ db, subscriptions, outbox, productName: config.PRODUCT_NAME }),
      clearAll: createClearAllSubscriptions({ subscriptions }),
    });
    const swapConsumer = await startSwapConsumer({
      db,
      bus,
      log,
      notices: createSwapNotices({ outbox, product: config.PRODUCT_NAME }),
      crewingEmail: () => outgoing.get('crewing_email'),
    });
    runtime.onClose(() => swapConsumer.stop());
    bellRoutes(app, { guard, bell: createBell(db), clock, bus, log });
    const purgeRpc = startLogPurgeRpc({ db, bus, log, clock });
    runtime.onClose(() => purgeRpc.unsubscribe());
    return { digestLinks };
  });
}
export type NotificationsService = Awaited<ReturnType<typeof createApp>>;
