import { consumerLag, type Bus } from '@crewswap/kit';
import type { OfferIndex } from './data/offer-index';
import { Counter, Gauge, type Registry } from 'prom-client';

export interface ReadModelMetrics {
  alertsSent: Counter;
  /** Notes the occurredAt of the trip event just applied. */
  tripEventApplied(occurredAt: string): void;
}

/**
 * How far the read model trails trips, for /metrics. Lag is 0 when the trips consumer has nothing
 * pending; otherwise it is the age of the oldest trips message not yet acknowledged (the stream's
 * own clock), or, if that cannot be read, of the last trip event applied here.
 */
export function createReadModelMetrics(options: { registry: Registry; bus: Bus; durable: string }): ReadModelMetrics {
  const { registry, bus, durable } = options;
  let lastAppliedAt: number | undefined;
  let snapshot: { at: number; value: Promise<{ pending: number; lagSeconds: number }> } | undefined;

  async function measure(): Promise<{ pending: number; lagSeconds: number }> {
    const lag = await consumerLag(bus, 'TRIPS', durable, { oldest: true });
    if (!lag) throw new Error(`the ${durable} consumer cannot be asked`);
    const pending = lag.pending + lag.ackPending;
    if (pending === 0) return { pending, lagSeconds: 0 };
    const oldest = lag.oldestAt ?? lastAppliedAt;
    return { pending, lagSeconds: oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000) };
  }

  /** One look at the consumer per scrape serves both gauges. */
  function current(): Promise<{ pending: number; lagSeconds: number }> {
    if (!snapshot || Date.now() - snapshot.at > 1000) snapshot = { at: Date.now(), value: measure() };
    return snapshot.value;
  }

  new Gauge({
    name: 'swaps_read_model_lag_seconds',
    help: 'Seconds the swaps read model trails the trips events (0 when caught up)',
    registers: [registry],
    async collect() {
      const value = await current().catch(() => undefined);
      if (value) this.set(value.lagSeconds);
    },
  });
  new Gauge({
    name: 'swaps_trips_consumer_pending_messages',
    help: 'Trips events published but not yet applied to the swaps read model',
    registers: [registry],
    async collect() {
      const value = await current().catch(() => undefined);
      if (value) this.set(value.pending);
    },
  });
  const lastApplied = new Gauge({
    name: 'swaps_last_trip_event_timestamp_seconds',
    help: 'occurredAt of the last trip event applied by this process',
    registers: [registry],
  });

  return {
    alertsSent: new Counter({ name: 'swaps_alerts_sent_total', help: 'Swap alert push commands sent', registers: [registry] }),
    tripEventApplied(occurredAt) {
      const at = Date.parse(occurredAt);
      if (Number.isNaN(at)) return;
      lastAppliedAt = at;
      lastApplied.set(at / 1000);
    },
  };
}

/** The offer index for /metrics: how many offers it holds, and whether Find swaps answers from it. */
export function trackOfferIndex(registry: Registry, index: Pick<OfferIndex, 'status'>): void {
  new Gauge({
    name: 'swaps_offer_index_offers',
    help: 'Offers the swaps offer index holds in memory',
    registers: [registry],
    collect() {
      this.set(index.status().offers);
    },
  });
  new Gauge({
    name: 'swaps_offer_index_ready',
    help: 'Whether Find swaps answers from the offer index (1) or from Postgres while it reloads (0)',
    registers: [registry],
    collect() {
      this.set(index.status().ready ? 1 : 0);
    },
  });
}
