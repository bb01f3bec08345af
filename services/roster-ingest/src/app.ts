import multipart from '@fastify/multipart';
import { ROSTER_MAX_BYTES } from '@crewswap/proto';
import type { Config } from './config';
import { startPeriodic, startService, type ServiceOptions } from '@crewswap/kit';
import { createHistoryRepository } from './data/history';
import { createMailRepository } from './data/mail';
import { createPilotRepository } from './data/pilots';
import { createSubscriptionRepository } from './data/subscriptions';
import { createSystemStateRepository } from './data/system-state';
import { createUploadAddressRepository } from './data/upload-addresses';
import { createImportRoster } from './domain/import-roster';
import { createProcessMail } from './domain/process-mail';
import { createRosterSubscriptions } from './domain/roster-subscription';
import { startMailWorker } from './events/mail-worker';
import { startPilotDirectory } from './events/pilot-directory';
import { startSystemState } from './events/system-state';
import type { DNSResolver } from './mail/authenticate';
import { createRosterMetrics } from './metrics';
import { migrations } from './migrations';
import { startParsePool } from './parse/pool';
import { historyRoutes } from './routes/history';
import { subscriptionRoutes } from './routes/subscription';
import { uploadRoutes } from './routes/upload';
import { uploadAddressRoutes } from './routes/upload-address';
import { startSmtpReceiver, type SmtpReceiver } from './smtp/receiver';

export type AppOptions = ServiceOptions & {
  /** DNS for the SPF and DKIM checks of emailed rosters (tests answer for their own domains). */
  dnsResolver?: DNSResolver;
};

export function createApp(config: Config, appOptions: AppOptions = {}) {
  const { dnsResolver, ...options } = appOptions;
  return startService({ name: 'roster-ingest', schema: 'roster_ingest', migrations, config, options }, async (parts) => {
    const { app, runtime, clock } = parts;
    const { db, bus, log, outbox } = runtime;
    const pilots = createPilotRepository(db);
    const history = createHistoryRepository(db);
    const mails = createMailRepository(db);
    const addresses = createUploadAddressRepository(db);
    const state = createSystemStateRepository(db);
    const subscriptionRows = createSubscriptionRepository(db);

    const settings = parts.settings();

    const metrics = createRosterMetrics(app.metrics.registry);
    const parsePool = startParsePool({ size: config.PARSE_WORKERS, timeoutMs: config.PARSE_TIMEOUT_MS, log });
    runtime.onClose(() => parsePool.close());
    const importRoster = createImportRoster({ db, bus, outbox, history, metrics, productName: config.PRODUCT_NAME, parse: parsePool.parse });
    // The shared address: the admin's setting, or the fallback while admin cannot be asked. Mail to either is taken.
    const uploadAddress = async () => (await settings.get('upload_email').catch(() => '')) || config.ROSTER_UPLOAD_EMAIL;
    const uploadAddresses = async () => [await uploadAddress(), config.ROSTER_UPLOAD_EMAIL];
    const processMail = createProcessMail({ db, mails, pilots, history, addresses, state, importRoster, log, uploadAddresses, resolver: dnsResolver });

    const subscriptions = createRosterSubscriptions({
      db,
      outbox,
      clock,
      log,
      pilots,
      subscriptions: subscriptionRows,
      importRoster,
      metrics,
      fetch: { allowedHosts: config.ROSTER_FETCH_ALLOWED_PRIVATE_HOSTS, timeoutMs: config.ROSTER_FETCH_TIMEOUT_MS },
      intervalMs: config.ROSTER_FETCH_INTERVAL_MINUTES * 60_000,
      productName: config.PRODUCT_NAME,
    });

    const directory = await startPilotDirectory({ db, bus, log, pilots, subscriptions: subscriptionRows });
    runtime.onClose(() => directory.stop());
    const systemState = await startSystemState({ db, bus, log, outbox, state, mails });
    runtime.onClose(() => systemState.stop());
    if (config.MAIL_WORKER_ENABLED) {
      const worker = await startMailWorker({ db, bus, log, processMail, ackWaitMs: config.MAIL_ACK_WAIT_MS, concurrency: config.MAIL_WORKER_CONCURRENCY });
      runtime.onClose(() => worker.stop());
    }
    if (config.ROSTER_FETCH_ENABLED) {
      // Every replica looks; the database hands each due address to one of them.
      const fetcher = startPeriodic({ name: 'fetch roster addresses', log, intervalMs: config.ROSTER_FETCH_TICK_MS, task: () => subscriptions.fetchDue() });
      runtime.onClose(() => fetcher.stop());
    }
    let smtp: SmtpReceiver | undefined;
    if (config.SMTP_INGEST_ENABLED) {
      const files = config.SMTP_TLS_KEY_FILE && config.SMTP_TLS_CERT_FILE ? { keyFile: config.SMTP_TLS_KEY_FILE, certFile: config.SMTP_TLS_CERT_FILE } : undefined;
      const tls = config.SMTP_STARTTLS ? { files, required: config.SMTP_REQUIRE_TLS } : undefined;
      smtp = await startSmtpReceiver({
        db,
        outbox,
        mails,
        log,
        host: config.SMTP_INGEST_HOST,
        port: config.SMTP_INGEST_PORT,
        maxBytes: config.SMTP_MAX_MESSAGE_BYTES,
        maxClients: config.SMTP_MAX_CLIENTS,
        bufferBytes: config.SMTP_BUFFER_BYTES,
        uploadAddresses,
        isPrivateToken: async (token) => (await addresses.pilotOf(token)) !== undefined,
        admit: processMail.admit,
        tls,
      });
      const receiver = smtp;
      runtime.onClose(() => receiver.close());
    }

    // One file part of up to 10 MB; a larger one is cut off and answered 413 by the route.
    app.register(multipart, { limits: { fileSize: ROSTER_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    app.after(() => {
      uploadRoutes(app, { guard: runtime.guard, pilots, importRoster });
      uploadAddressRoutes(app, { guard: runtime.guard, addresses, uploadAddress });
      subscriptionRoutes(app, { guard: runtime.guard, subscriptions });
      historyRoutes(app, { guard: runtime.guard, history, clock });
    });

    return {
      smtpPort: smtp?.port,
      useCases: { importRoster, processMail, subscriptions },
      repositories: { pilots, history, mails, addresses, state, subscriptions: subscriptionRows },
    };
  });
}
export type RosterIngestApp = Awaited<ReturnType<typeof createApp>>;
