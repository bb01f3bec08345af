import { createServiceApp, registerRuntimeMetrics, createSettingsClient, startRuntime, systemClock, type Clock, type Runtime } from '@crewswap/kit';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import { createContext, type AuthContext } from './domain/context';
import { sweepIdleSessions } from './domain/sessions';
import { startActivitySubscription } from './events/activity';
import { serveSeedDemoPilots } from './events/seed';
import { serveSystemState } from './events/system';
import { countLoginOutcomes } from './login-metrics';
import { migrations } from './migrations';
import { adminRoutes } from './routes/admin';
import { authRoutes } from './routes/auth';
import { pilotRoutes } from './routes/pilots';

export interface AuthApp {
  app: FastifyInstance;
  runtime: Runtime;
  ctx: AuthContext;
  /** Ends idle sessions now (the sweeper also runs it every SESSION_SWEEP_MS). */
  sweepIdleSessions(): Promise<number>;
  close(): Promise<void>;
}

export async function createApp(config: Config, options: { clock?: Clock } = {}): Promise<AuthApp> {
  const runtime = await startRuntime({ name: 'auth', schema: 'auth', migrations, config });
  try {
    const settings = createSettingsClient(runtime.bus, runtime.log, config.SETTINGS_CACHE_MS);
    runtime.onClose(() => settings.stop());
    const ctx = createContext(runtime, config, options.clock ?? systemClock, settings);

    const app = createServiceApp({ name: 'auth', logger: runtime.log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);
    countLoginOutcomes(app);
    authRoutes(app, ctx);
    pilotRoutes(app, ctx);
    adminRoutes(app, ctx);

    const system = serveSystemState(ctx);
    runtime.onClose(() => system.unsubscribe());
    const activity = startActivitySubscription(ctx);
    runtime.onClose(() => activity.stop());
    const seed = serveSeedDemoPilots(ctx);
    runtime.onClose(() => seed.unsubscribe());

    const sweep = () => sweepIdleSessions(ctx);
    const sweeper = setInterval(() => {
      sweep().catch((error: unknown) => runtime.log.warn({ err: error }, 'idle session sweep failed'));
    }, config.SESSION_SWEEP_MS);
    sweeper.unref();
    runtime.onClose(() => clearInterval(sweeper));

    return {
      app,
      runtime,
      ctx,
      sweepIdleSessions: sweep,
      async close() {
        await app.close();
        await runtime.close();
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}
