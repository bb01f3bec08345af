import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { createServiceApp } from './http/app';
import { ConfigError, loadConfig, type BaseConfig } from './config';
import { systemClock, type Clock } from './clock';
import type { Migration, OwnedElsewhere } from './data/db';
import type { SigningKeys } from './sessions/keys';
import { startRuntime, type Runtime } from './runtime';
import { registerRuntimeMetrics } from './observability/runtime-metrics';
import { startTracing, stopTracing, type TracingOptions } from './observability/tracing';
import { serveThroughOutages } from './outage-guard';
import { createSettingsClient, type SettingsClient } from './events/settings-client';

/** What tests (and scripts) may hand a service instead of its defaults. */
export interface ServiceOptions {
  clock?: Clock;
  log?: Logger;
  keys?: SigningKeys;
  /** Admin's settings as the service reads them; by default a kit settings client on the bus. */
  settings?: Pick<SettingsClient, 'get'>;
}

export interface ServiceDefinition<C extends BaseConfig> {
  name: string;
  /** The Postgres schema the service owns (or works in, when another owns it). */
  schema: string;
  /** The schema's migrations; or, in a schema another service migrates, what the process waits for there. */
  migrations: Record<string, Migration> | OwnedElsewhere;
  config: C;
  options?: ServiceOptions;
}

/** What the builder gets: the service app (routes go on it), its runtime, its config and the clock. */
export interface ServiceParts<C extends BaseConfig> {
  app: FastifyInstance;
  runtime: Runtime;
  config: C;
  clock: Clock;
  /**
   * Admin's settings: `options.settings` when given, else a settings client made on first call
   * (cached `cacheMs`, stopped at close). Services that read no setting never call it.
   */
  settings(cacheMs?: number): Pick<SettingsClient, 'get'>;
}

export type Service<E extends object = object> = { app: FastifyInstance; runtime: Runtime; close(): Promise<void> } & E;

/**
 * Every service's `createApp`: starts its runtime, builds the service app on it, then lets the
 * service add its routes, consumers and schedulers (registering their stops with
 * `runtime.onClose`). Closing stops the app before the runtime, once however often it is called;
 * a builder that throws leaves nothing running.
 */
export async function startService<C extends BaseConfig, E extends object>(
  definition: ServiceDefinition<C>,
  build: (parts: ServiceParts<C>) => Promise<E> | E,
): Promise<Service<E>> {
  const { name, schema, migrations, config, options = {} } = definition;
  const runtime = await startRuntime({ name, schema, migrations, config, log: options.log, keys: options.keys });
  let app: FastifyInstance | undefined;
  try {
    app = createServiceApp({ name, logger: runtime.log, readiness: runtime.readiness, responseValidation: config.RESPONSE_VALIDATION });
    registerRuntimeMetrics(app.metrics.registry, runtime);
    // Where kit routes keep the answers to Idempotency-Keys: the service's own schema.
    app.decorate('idempotencyDb', runtime.db);
    let settings = options.settings;
    const settingsOnce = (cacheMs?: number) => {
      if (!settings) {
        const client = createSettingsClient(runtime.bus, runtime.log, cacheMs);
        runtime.onClose(() => client.stop());
        settings = client;
      }
      return settings;
    };
    const extras = await build({ app, runtime, config, clock: options.clock ?? systemClock, settings: settingsOnce });
    const built = app;
    let closed = false;
    return {
      ...extras,
      app: built,
      runtime,
      async close() {
        if (closed) return;
        closed = true;
        await built.close();
        await runtime.close();
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await runtime.close();
    throw error;
  }
}

/** What `runService` needs of a built service: an app to listen with and a way to close it. */
export interface Runnable {
  app: FastifyInstance;
  close(): Promise<void>;
  /** A service with a runtime drains and exits when an admin asks for a restart. */
  runtime?: Pick<Runtime, 'onRestartRequested'>;
}

/** Replicas hear a restart together; a random wait of up to this spreads their exits. */
const RESTART_SPREAD_MS = 3_000;

type ServiceConfig = { PORT: number; HOST: string; OTEL_SERVICE_NAME: string; OTEL_EXPORTER_OTLP_ENDPOINT?: string };

/**
 * The whole of every service's `main.ts`: loads the configuration with the service's schema,
 * builds the app, listens on PORT/HOST and closes cleanly on SIGINT/SIGTERM. A configuration
 * error prints its lines and exits 1 without a stack.
 */
export async function runService<S extends z.ZodType<ServiceConfig>>(
  configSchema: S,
  createApp: (config: z.output<S>) => Promise<Runnable>,
  tracing: Pick<TracingOptions, 'clientSpans'> = {},
): Promise<void> {
  let service: Runnable;
  let config: z.output<S>;
  try {
    config = loadConfig(configSchema);
    startTracing({ ...tracing, serviceName: config.OTEL_SERVICE_NAME, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
    service = await createApp(config);
    await service.app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`Failed to start: ${(error as Error).stack ?? String(error)}\n`);
    }
    process.exit(1);
  }
  // A database or NATS outage never ends a running service: it serves 503 and reconnects.
  serveThroughOutages(service.app.log);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    service.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await service.close();
    // The last spans are sent before the process goes.
    await stopTracing().catch(() => undefined);
    process.exit(0);
  };
  // Exit 0 after draining: the supervisor (Kubernetes, scripts/stack.ts) starts the process again.
  service.runtime?.onRestartRequested(() => {
    setTimeout(() => void shutdown('restart requested'), Math.random() * RESTART_SPREAD_MS).unref();
  });
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
