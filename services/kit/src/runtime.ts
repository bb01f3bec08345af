import type { ReadinessCheck } from './http/app';
import type { Logger } from 'pino';
import type { BaseConfig } from './config';
import { createDb, isDatabaseReachable, isOwnedElsewhere, migrate, waitForSchema, type Db, type Migration, type OwnedElsewhere } from './data/db';
import { loadSigningKeys, type SigningKeys } from './sessions/keys';
import { createLogger } from './observability/logger';
import { connectBus, ensureStreams, isBusReachable, natsCredentials, streamLimits, type Bus } from './events/nats';
import { createOutbox, kitMigrations, startOutboxRelay, type Outbox, type OutboxRelay } from './events/outbox';
import { startKitPruner } from './data/prune';
import { startRestartListener } from './events/restart';
import { serveOutboxPending } from './events/outbox-pending';
import { startSessionGuard, type SessionGuard } from './sessions/sessions';

/** What a service runs on: its database schema, the bus, its outbox and the session guard. */
export interface Runtime {
  name: string;
  log: Logger;
  db: Db;
  bus: Bus;
  outbox: Outbox;
  relay: OutboxRelay;
  guard: SessionGuard;
  keys: SigningKeys;
  /**
   * The database decides readiness; NATS and whether session revocations are followed are
   * reported only (the outbox holds events while NATS is away, and every replica is in the same
   * state, so taking them out of service would help nobody).
   */
  readiness: Record<string, ReadinessCheck>;
  /**
   * Called when an admin asks for a restart (`admin.system.restart`, heard by every process);
   * `runService` then drains and exits, and the supervisor starts the process again.
   */
  onRestartRequested(fn: () => void): void;
  /** Registers work to undo at close, run in reverse order. */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  name: string;
  /** The Postgres schema the service owns (or works in, when another owns it). */
  schema: string;
  /** The schema's migrations; or, in a schema another service migrates, what this process waits for there. */
  migrations: Record<string, Migration> | OwnedElsewhere;
  config: BaseConfig;
  log?: Logger;
  keys?: SigningKeys;
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, name } = options;
  const startedAt = new Date();
  const log = options.log ?? createLogger(name, config);
  const closers: (() => Promise<void> | void)[] = [];
  const db = createDb(config.DATABASE_URL, options.schema, undefined, log);
  closers.push(() => db.destroy());
  try {
    const { migrations } = options;
    if (isOwnedElsewhere(migrations)) await waitForSchema(db, options.schema, { ...migrations, migrations: Object.keys(kitMigrations) }, log);
    else await migrate(db, options.schema, { ...kitMigrations, ...migrations });
    const bus = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name, log, credentials: natsCredentials(config) }).catch((error: Error) => {
      throw new Error(`Cannot reach NATS at ${config.NATS_URL}: ${error.message}`);
    });
    closers.push(() => bus.close());
    await ensureStreams(bus, streamLimits(config), log);
    const relay = startOutboxRelay({ db, bus, log });
    closers.push(() => relay.stop());
    const keys = options.keys ?? loadSigningKeys(config);
    const outboxPending = serveOutboxPending({ bus, db, log, service: name });
    closers.push(() => outboxPending.unsubscribe());
    const guard = await startSessionGuard({ publicKey: keys.publicKey, bus, log, outageGraceMs: config.SESSION_OUTAGE_GRACE_SECONDS * 1000, owners: { auth: config.AUTH_URL, admin: config.ADMIN_URL } });
    closers.push(() => guard.stop());
    const restart = await startRestartListener({ bus, log, startedAt });
    closers.push(() => restart.stop());
    const pruner = startKitPruner({ db, log });
    closers.push(() => pruner.stop());
    return {
      name,
      log,
      db,
      bus,
      outbox: createOutbox(relay),
      relay,
      guard,
      keys,
      readiness: {
        database: () => isDatabaseReachable(db),
        nats: { required: false, check: () => isBusReachable(bus) },
        revocations: { required: false, check: async () => guard.following() },
        // Sessions are still served during the outage grace; this turns false once it is over.
        sessions: { required: false, check: async () => guard.serving() },
      },
      onRestartRequested: (fn) => restart.onRestartRequested(fn),
      onClose: (fn) => closers.push(fn),
      async close() {
        for (const close of closers.reverse().splice(0)) {
          await Promise.resolve(close()).catch((error: unknown) => log.warn({ err: error }, 'error while closing'));
        }
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
    throw error;
  }
}
