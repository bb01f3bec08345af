import type { FastifyInstance } from 'fastify';
import type { ReadinessCheck } from './app';
import type { Logger } from 'pino';
import { ConfigError, type BaseConfig } from './config';
import { createDb, isDatabaseReachable, migrate, type Db, type Migration } from './db';
import { loadSigningKeys, type SigningKeys } from './keys';
import { createLogger } from './logger';
import { connectBus, ensureStreams, isBusReachable, type Bus } from './nats';
import { createOutbox, kitMigrations, startOutboxRelay, type Outbox, type OutboxRelay } from './outbox';
import { startKitPruner } from './prune';
import { startRestartListener } from './restart';
import { serveRevocationsPending, startSessionGuard, type SessionGuard } from './sessions';

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
  /** The Postgres schema the service owns. */
  schema: string;
  migrations: Record<string, Migration>;
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
    await migrate(db, options.schema, { ...kitMigrations, ...options.migrations });
    const bus = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name, log }).catch((error: Error) => {
      throw new Error(`Cannot reach NATS at ${config.NATS_URL}: ${error.message}`);
    });
    closers.push(() => bus.close());
    await ensureStreams(bus);
    const relay = startOutboxRelay({ db, bus, log });
    closers.push(() => relay.stop());
    const keys = options.keys ?? loadSigningKeys(config);
    const pending = serveRevocationsPending({ bus, db, log, service: name });
    closers.push(() => pending.unsubscribe());
    const guard = await startSessionGuard({ publicKey: keys.publicKey, bus, log });
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

const RESTART_SPREAD_MS = 3_000;

/**
 * The body of every service's `main.ts`: build, listen, and close cleanly on SIGINT/SIGTERM.
 * A configuration error prints its lines and exits 1 without a stack.
 */
export async function runService(
  start: () => Promise<{ app: FastifyInstance; port: number; host: string; close(): Promise<void>; runtime?: Pick<Runtime, 'onRestartRequested'> }>,
): Promise<void> {
  let service: Awaited<ReturnType<typeof start>>;
  try {
    service = await start();
    await service.app.listen({ port: service.port, host: service.host });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`Failed to start: ${(error as Error).stack ?? String(error)}\n`);
    }
    process.exit(1);
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    service.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await service.app.close();
    await service.close();
    process.exit(0);
  };
  // Replicas hear a restart together; a random wait of up to RESTART_SPREAD_MS spreads their
  // exits so the supervisor is not starting every one of them at the same moment.
  service.runtime?.onRestartRequested(() => {
    setTimeout(() => void shutdown('restart requested'), Math.random() * RESTART_SPREAD_MS).unref();
  });
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
