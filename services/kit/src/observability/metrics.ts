import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** Requests answered: an event stream and the probes and scrapes are not in it (see below). */
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** How long each event stream stayed open: minutes to hours, nothing like a request's time. */
  streamDuration: Histogram<'route'>;
  streamsOpen: Gauge<'route'>;
}

/** One registry per app, so tests that build several apps in one process do not collide. */
export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The event loop's delay sampled every 100 ms, not prom-client's 10: a timer waking every
  // process 100 times a second kept an idle stack of 18 processes busy, and a scrape every 15 s
  // reads percentiles that a 100 ms resolution gives as well.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const streamDuration = new Histogram({
    name: 'sse_stream_duration_seconds',
    help: 'How long server-sent event streams stayed open',
    labelNames: ['route'] as const,
    buckets: [1, 10, 60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600],
    registers: [registry],
  });
  const streamsOpen = new Gauge({
    name: 'sse_streams_open',
    help: 'Server-sent event streams open in this process',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  return { registry, httpDuration, streamDuration, streamsOpen };
}

/**
 * `dependency_up{dependency}`: 1 while a dependency answers, 0 while it does not, asked afresh at
 * each scrape. NATS shows here even though it does not decide readiness.
 */
export function trackDependencies(metrics: Metrics, check: () => Promise<Record<string, boolean>>): void {
  new Gauge({
    name: 'dependency_up',
    help: 'Whether a dependency (database, nats, an upstream) answers: 1 up, 0 down',
    labelNames: ['dependency'] as const,
    registers: [metrics.registry],
    async collect() {
      for (const [dependency, up] of Object.entries(await check())) this.set({ dependency }, up ? 1 : 0);
    },
  });
}

/**
 * Serves `GET /metrics` from a registry on a port of its own, for a process whose main port is
 * public (the gateway): Prometheus scrapes this one, and the public route never reaches it.
 */
export async function startMetricsServer(registry: Registry, options: { port: number; host: string }): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
