import { STREAMS, type StreamName } from '@crewswap/proto';
import {
  connect,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  RetentionPolicy,
  StorageType,
} from 'nats';
import type { Logger } from 'pino';

/**
 * The NATS connection of one process, with the subject prefix applied in one place. Domain code
 * always names subjects as `proto` spells them; `subject()` maps them onto this deployment.
 */
export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  prefix: string;
  subject(name: string): string;
  stream(name: StreamName): string;
  /** The subject as proto names it, from a subject received on the wire. */
  unprefix(subject: string): string;
  close(): Promise<void>;
}

export async function connectBus(options: { url: string; prefix: string; name: string; log: Logger }): Promise<Bus> {
  const nc = await connect({
    servers: options.url,
    name: options.name,
    // Keep trying for ever: a NATS restart must not take the service down; the outbox holds events meanwhile.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // A silent network (no reset) is noticed within about 20 s rather than the default minutes:
    // until then this process would trust sessions whose revocations it cannot hear.
    pingInterval: 10_000,
    maxPingOut: 2,
  });
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        options.log.warn({ nats: status.type }, `NATS ${status.type}`);
      }
    }
  })();
  const jsm = await nc.jetstreamManager();
  const js = nc.jetstream();
  const dotted = options.prefix ? `${options.prefix}.` : '';
  const underscored = options.prefix ? `${options.prefix}_` : '';
  return {
    nc,
    js,
    jsm,
    prefix: options.prefix,
    subject: (name) => `${dotted}${name}`,
    stream: (name) => `${underscored}${name}`,
    unprefix: (subject) => (dotted && subject.startsWith(dotted) ? subject.slice(dotted.length) : subject),
    close: async () => {
      if (!nc.isClosed()) await nc.drain();
    },
  };
}

/** Makes sure every stream exists with its subjects (idempotent; safe from every replica). */
export async function ensureStreams(bus: Bus): Promise<void> {
  for (const [name, subjects] of Object.entries(STREAMS) as [StreamName, readonly string[]][]) {
    const config = {
      name: bus.stream(name),
      subjects: subjects.map((subject) => bus.subject(subject)),
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      // Long enough that the Nats-Msg-Id dedupe window covers a relay retrying after a restart.
      duplicate_window: 10 * 60 * 1_000_000_000,
    };
    try {
      await bus.jsm.streams.info(config.name);
      await bus.jsm.streams.update(config.name, config);
    } catch {
      await bus.jsm.streams.add(config);
    }
  }
}

export async function deleteStreams(bus: Bus): Promise<void> {
  for (const name of Object.keys(STREAMS) as StreamName[]) {
    await bus.jsm.streams.delete(bus.stream(name)).catch(() => undefined);
  }
}

export async function isBusReachable(bus: Bus): Promise<boolean> {
  if (bus.nc.isClosed()) return false;
  // flush() waits for a reconnect while NATS is away; readiness must answer promptly instead.
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000).unref());
  return Promise.race([bus.nc.flush().then(() => true, () => false), timeout]);
}

export type { ConsumerConfig };
