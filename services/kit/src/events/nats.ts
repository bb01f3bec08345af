import { STREAMS, type StreamName } from '@crewswap/proto';
import { readFileSync } from 'node:fs';
import {
  connect,
  credsAuthenticator,
  type ConnectionOptions,
  DiscardPolicy,
  NatsError,
  nanos,
  type ConsumerConfig,
  type StreamConfig,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  RetentionPolicy,
  StorageType,
} from 'nats';
import type { Logger } from 'pino';
import type { BaseConfig } from '../config';

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

/** Who a process is on NATS: its own user, or a creds file; and the CA of a `tls://` NATS. */
export interface NatsCredentials {
  user?: string;
  password?: string;
  credsFile?: string;
  caFile?: string;
}

/** The base config's NATS_USER / NATS_PASSWORD, NATS_CREDS and NATS_CA_FILE. */
export function natsCredentials(config: Pick<BaseConfig, 'NATS_USER' | 'NATS_PASSWORD' | 'NATS_CREDS' | 'NATS_CA_FILE'>): NatsCredentials {
  return { user: config.NATS_USER, password: config.NATS_PASSWORD, credsFile: config.NATS_CREDS, caFile: config.NATS_CA_FILE };
}

function connectOptions(credentials: NatsCredentials = {}): Partial<ConnectionOptions> {
  return {
    ...(credentials.user ? { user: credentials.user, pass: credentials.password ?? '' } : {}),
    ...(credentials.credsFile ? { authenticator: credsAuthenticator(readFileSync(credentials.credsFile)) } : {}),
    ...(credentials.caFile ? { tls: { caFile: credentials.caFile } } : {}),
  };
}

export async function connectBus(options: { url: string; prefix: string; name: string; log: Logger; credentials?: NatsCredentials }): Promise<Bus> {
  const nc = await connect({
    ...connectOptions(options.credentials),
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
      // Publishing or listening outside this service's permissions (proto's NATS_SERVICES): a bug
      // to fix, never to retry. A request so refused also fails at once with the same error.
      if (status.type === 'error' && status.permissionContext) {
        const { operation, subject } = status.permissionContext;
        options.log.error({ nats: status.data, operation, subject }, `NATS refused: permissions violation for ${operation} to "${subject}"`);
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

/** How much each stream keeps, and on how many servers (the base config's NATS_STREAM_*). */
export interface StreamLimits {
  replicas: number;
  /** 0: no limit. */
  maxAgeSeconds: number;
  /** 0: no limit. */
  maxBytes: number;
}

export function streamLimits(config: Pick<BaseConfig, 'NATS_STREAM_REPLICAS' | 'NATS_STREAM_MAX_AGE_SECONDS' | 'NATS_STREAM_MAX_BYTES'>): StreamLimits {
  return { replicas: config.NATS_STREAM_REPLICAS, maxAgeSeconds: config.NATS_STREAM_MAX_AGE_SECONDS, maxBytes: config.NATS_STREAM_MAX_BYTES };
}

/** The base config's defaults: one replica, 30 days, no byte limit. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { replicas: 1, maxAgeSeconds: 30 * 24 * 3600, maxBytes: 0 };

/** Long enough that the Nats-Msg-Id dedupe window covers a relay retrying after a restart. */
const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/** JetStream's error codes that ensureStreams acts on. */
const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;
const REPLICAS_NOT_SUPPORTED = 10074;
const INSUFFICIENT_STORAGE = 10047;

/** The fields ensureStreams sets: an existing stream is updated only when one of these differs. */
const MANAGED = ['subjects', 'num_replicas', 'max_age', 'max_bytes', 'discard', 'duplicate_window'] as const;

/**
 * Makes sure every stream exists with its subjects and limits (idempotent; safe from every
 * replica): a missing one is made, one whose subjects or limits differ is updated in place, its
 * events kept. Past a limit the oldest events go, never new ones: a refused publish would stall
 * every outbox. A NATS that cannot keep the replicas asked for (a single server) keeps what it
 * can, with a warning, rather than stopping the service.
 */
export async function ensureStreams(bus: Bus, limits: StreamLimits = DEFAULT_STREAM_LIMITS, log?: Logger): Promise<void> {
  const maxAge = limits.maxAgeSeconds * 1000;
  for (const [name, subjects] of Object.entries(STREAMS) as [StreamName, readonly string[]][]) {
    const wanted: Partial<StreamConfig> & { name: string } = {
      name: bus.stream(name),
      subjects: subjects.map((subject) => bus.subject(subject)),
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      num_replicas: limits.replicas,
      max_age: nanos(maxAge),
      max_bytes: limits.maxBytes > 0 ? limits.maxBytes : -1,
      discard: DiscardPolicy.Old,
      // NATS refuses a dedupe window longer than the streams' age limit.
      duplicate_window: nanos(maxAge > 0 ? Math.min(DUPLICATE_WINDOW_MS, maxAge) : DUPLICATE_WINDOW_MS),
    };
    await ensureStream(bus, wanted, log);
  }
}

async function ensureStream(bus: Bus, wanted: Partial<StreamConfig> & { name: string }, log: Logger | undefined, again = true): Promise<void> {
  const existing = await bus.jsm.streams.info(wanted.name).catch((error: unknown) => {
    if (apiErrorCode(error) === STREAM_NOT_FOUND) return undefined;
    throw error;
  });
  if (existing && MANAGED.every((key) => JSON.stringify(existing.config[key]) === JSON.stringify(wanted[key]))) return;
  const write = (config: typeof wanted) => (existing ? bus.jsm.streams.update(wanted.name, config) : bus.jsm.streams.add(config));
  try {
    await write(wanted);
  } catch (error) {
    const code = apiErrorCode(error);
    // Another replica made it a moment ago: compare with what it made.
    if (!existing && code === STREAM_NAME_IN_USE && again) return ensureStream(bus, wanted, log, false);
    if (code === INSUFFICIENT_STORAGE) {
      throw new Error(
        `NATS cannot reserve ${wanted.max_bytes} bytes for stream ${wanted.name} (NATS_STREAM_MAX_BYTES, reserved for each of the ${Object.keys(STREAMS).length} streams on each replica): give JetStream more storage or lower the limit`,
        { cause: error },
      );
    }
    if (code !== REPLICAS_NOT_SUPPORTED) throw error;
    const replicas = existing?.config.num_replicas ?? 1;
    log?.warn({ stream: wanted.name, asked: wanted.num_replicas, kept: replicas }, 'NATS cannot keep this many replicas of a stream here (a single server?): keeping what it has');
    await write({ ...wanted, num_replicas: replicas });
  }
}

function apiErrorCode(error: unknown): number | undefined {
  return error instanceof NatsError ? error.api_error?.err_code : undefined;
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
