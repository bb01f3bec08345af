import {
  connectBus,
  natsCredentials,
  ensureStreams,
  createLogger,
  createServiceApp,
  isBusReachable,
  loadSigningKeys,
  startRestartListener,
  startSessionGuard,
  streamLimits,
  type RestartListener,
  type Logger,
  type SigningKeys,
} from '@crewswap/kit';
import { HEARTBEAT_INTERVAL_MS } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import type { RealtimeConfig } from './config';
import { createHub, type Hub } from './domain/hub';
import { startFeeds } from './events/feeds';
import { eventRoutes } from './routes/events';

/**
 * Heartbeat ticks per interval (one every 100 ms at 25 s), each for its share of the streams:
 * at 20,000 streams a tick writes 80 frames. With 25 slices a tick wrote 800 at once, and an
 * event behind them (in realtime, the gateway and the browser) waited for all of them: p99 over
 * a second at 9,900 streams on a loaded machine (issue 58's bench).
 */
const HEARTBEAT_SLICES = 250;

export interface RealtimeAppOptions {
  log?: Logger;
  keys?: SigningKeys;
  heartbeatMs?: number;
}

export interface RealtimeService {
  app: FastifyInstance;
  hub: Hub;
  /** Restart server reaches this process too (runService drains it; browsers reconnect). */
  runtime: Pick<RestartListener, 'onRestartRequested'>;
  close(): Promise<void>;
}

/**
 * No database: the session guard (revocations, with their reasons) and two followers
 * (trip changes, roster imports) feed the streams this process holds.
 */
export async function createApp(config: RealtimeConfig, options: RealtimeAppOptions = {}): Promise<RealtimeService> {
  const startedAt = new Date();
  const log = options.log ?? createLogger('realtime', config);
  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse().splice(0)) await Promise.resolve(close()).catch((error: unknown) => log.warn({ err: error }, 'error while closing'));
  };
  try {
    const bus = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name: 'realtime', log, credentials: natsCredentials(config) }).catch((error: Error) => {
      throw new Error(`Cannot reach NATS at ${config.NATS_URL}: ${error.message}`);
    });
    closers.push(() => bus.close());
    // Realtime may start before any service with data has made the streams it reads.
    await ensureStreams(bus, streamLimits(config), log);
    const restart = await startRestartListener({ bus, log, startedAt });
    closers.push(() => restart.stop());
    const keys = options.keys ?? loadSigningKeys(config);
    const guard = await startSessionGuard({ publicKey: keys.publicKey, bus, log, outageGraceMs: config.SESSION_OUTAGE_GRACE_SECONDS * 1000, owners: { auth: config.AUTH_URL, admin: config.ADMIN_URL } });
    closers.push(() => guard.stop());

    const hub = createHub({ bufferLimitBytes: config.SSE_BUFFER_LIMIT_BYTES, heartbeatSlices: HEARTBEAT_SLICES });
    const stopRevocations = guard.onRevoked((revocation) => {
      if (revocation.kind === 'pilot') hub.endSession(revocation.sessionId, revocation.reason);
    });
    closers.push(stopRevocations);
    const stopFeeds = await startFeeds({ bus, log, hub });
    closers.push(stopFeeds);
    // One slice at a time, so each stream still hears every HEARTBEAT_INTERVAL_MS but the
    // process never writes to all its streams at once.
    let tick = 0;
    const heartbeat = setInterval(() => hub.heartbeat(tick++ % HEARTBEAT_SLICES), (options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS) / HEARTBEAT_SLICES);
    closers.push(() => clearInterval(heartbeat));

    const app = createServiceApp({
      name: 'realtime',
      logger: log,
      // Reported, not required, as in every other service: every replica loses NATS alike, and
      // pilots' open streams come back on their own once it returns.
      readiness: {
        nats: { required: false, check: () => isBusReachable(bus) },
        revocations: { required: false, check: async () => guard.following() },
        sessions: { required: false, check: async () => guard.serving() },
      },
    });
    new Gauge({
      name: 'realtime_sse_connections',
      help: 'Open server-sent event connections on this pod',
      registers: [app.metrics.registry],
      collect() {
        this.set(hub.size());
      },
    });
    eventRoutes(app, { guard, hub });
    // Before fastify waits for open connections to finish: streams never finish on their own.
    app.addHook('preClose', async () => hub.closeAll());

    let closed = false;
    return {
      app,
      hub,
      runtime: { onRestartRequested: (fn: () => void) => restart.onRestartRequested(fn) },
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
