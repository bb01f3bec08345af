import type { StreamName } from '@crewswap/proto';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../data/db';
import { consumerLag } from '../events/lag';
import type { Bus } from '../events/nats';

/** The durable consumers this process runs, by bus, so /metrics can report how far behind they are. */
const consumersByBus = new WeakMap<Bus, Map<string, { stream: StreamName; durable: string }>>();

/** Called for every durable consumer and work queue: one entry per durable, however many times it is started. */
export function noteConsumer(bus: Bus, stream: StreamName, durable: string): void {
  const consumers = consumersByBus.get(bus) ?? new Map<string, { stream: StreamName; durable: string }>();
  consumers.set(`${stream}/${durable}`, { stream, durable });
  consumersByBus.set(bus, consumers);
}

/** Looks are shared by the gauges of one scrape and reused for a second, so a scrape costs one query each. */
function cached<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > 1000) last = { at: Date.now(), value: read() };
    return last.value;
  };
}

/**
 * What the dashboards and alerts need from every service with a runtime, read when Prometheus
 * scrapes: the outbox backlog (events written but not yet on NATS: grows while NATS is away) and,
 * per durable consumer, the messages not yet delivered and delivered but not yet acknowledged.
 * Replicas share durables, so each reports the same consumer: dashboards take the max.
 */
export function registerRuntimeMetrics(registry: Registry, runtime: { db: Db; bus: Bus }): void {
  const { db, bus } = runtime;
  const outbox = cached(async () => {
    const row: { count: number; oldest: Date | null } | undefined = await db('outbox')
      .whereNull('published_at')
      .first(db.raw('count(*)::int as count'), db.raw('min(created_at) as oldest'));
    return { count: row?.count ?? 0, ageSeconds: row?.oldest ? Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000) : 0 };
  });
  const consumers = cached(async () => {
    const watched = [...(consumersByBus.get(bus)?.values() ?? [])];
    return Promise.all(
      watched.map(async ({ stream, durable }) => {
        const lag = await consumerLag(bus, stream, durable);
        return { stream: bus.stream(stream), durable, pending: lag?.pending, ackPending: lag?.ackPending };
      }),
    );
  });

  new Gauge({
    name: 'outbox_unpublished_events',
    help: 'Events in this service\'s outbox not yet published to NATS',
    registers: [registry],
    async collect() {
      const value = await outbox().catch(() => undefined);
      if (value) this.set(value.count);
    },
  });
  new Gauge({
    name: 'outbox_oldest_unpublished_age_seconds',
    help: 'Age of the oldest event waiting in the outbox (0 when it is empty)',
    registers: [registry],
    async collect() {
      const value = await outbox().catch(() => undefined);
      if (value) this.set(value.ageSeconds);
    },
  });
  new Gauge({
    name: 'nats_consumer_pending_messages',
    help: 'Messages in the stream not yet delivered to this durable consumer',
    labelNames: ['stream', 'durable'] as const,
    registers: [registry],
    async collect() {
      for (const { stream, durable, pending } of await consumers().catch(() => [])) {
        if (pending !== undefined) this.set({ stream, durable }, pending);
      }
    },
  });
  new Gauge({
    name: 'nats_consumer_ack_pending_messages',
    help: 'Messages delivered to this durable consumer and not yet acknowledged',
    labelNames: ['stream', 'durable'] as const,
    registers: [registry],
    async collect() {
      for (const { stream, durable, ackPending } of await consumers().catch(() => [])) {
        if (ackPending !== undefined) this.set({ stream, durable }, ackPending);
      }
    },
  });
}
