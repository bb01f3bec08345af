import { createServiceApp, registerRuntimeMetrics, startPeriodic, startRuntime, systemClock, type Clock, type Logger, type Runtime, type SigningKeys } from '@crewswap/kit';
import type { FastifyInstance } from 'fastify';
import type { AdminConfig } from './config';
import { createActivityRepository } from './data/activity-repository';
import { createAdminRepository } from './data/admin-repository';
import { createSettingsRepository } from './data/settings-repository';
import { createAdminsService } from './domain/admins';
import { bootstrapMasterAdmin, seedSettings } from './domain/bootstrap';
import { createCleanupService, startCleanupScheduler, type CleanupService } from './domain/cleanup';
import { createEmergencyService } from './domain/emergency';
import { createAdminSessions, type AdminSessions } from './domain/sessions';
import { createSettingsService } from './domain/settings';
import { startAdminActivitySubscription } from './events/session-activity';
import { serveSettingsRpc } from './events/settings-rpc';
import { migrations } from './migrations';
import { activityRoutes } from './routes/activity';
import { adminsRoutes } from './routes/admins';
import { cleanupRoutes } from './routes/cleanup';
import { emergencyRoutes } from './routes/emergency';
import { sessionRoutes } from './routes/session';
import { settingsRoutes } from './routes/settings';

export interface AdminAppOptions {
  clock?: Clock;
  log?: Logger;
  keys?: SigningKeys;
}

export interface AdminService {
  app: FastifyInstance;
  runtime: Runtime;
  cleanup: CleanupService;
  sessions: AdminSessions;
  close(): Promise<void>;
}

export async function createApp(config: AdminConfig, options: AdminAppOptions = {}): Promise<AdminService> {
  const runtime = await startRuntime({ name: 'admin', schema: 'admin', migrations, config, log: options.log, keys: options.keys });
  try {
    const privateKey = runtime.keys.privateKey;
    if (!privateKey) throw new Error('admin signs admin sessions: set JWT_PRIVATE_KEY as well as JWT_PUBLIC_KEY');
    const clock = options.clock ?? systemClock;
    const { db, log, outbox, guard, bus } = runtime;
    const admins = createAdminRepository(db);
    const settingsRepository = createSettingsRepository(db);

    await bootstrapMasterAdmin({ db, admins, config, log });
    await seedSettings({ settings: settingsRepository, config, clock, log });

    const activity = createActivityRepository(db);
    const sessions = createAdminSessions({ db, admins, outbox, guard, clock, privateKey, activity, settings: settingsRepository });
    const activityFeed = startAdminActivitySubscription({ bus, log, admins, now: () => clock.now() });
    runtime.onClose(() => activityFeed.stop());
    const idleSweep = startPeriodic({ name: 'end idle admin sessions', log, intervalMs: config.ADMIN_SESSION_SWEEP_MS, task: () => sessions.endIdle() });
    runtime.onClose(() => idleSweep.stop());
    const settings = createSettingsService({ db, settings: settingsRepository, outbox, clock });
    const adminsService = createAdminsService({ db, admins, outbox, guard, clock });
    const emergency = createEmergencyService({ db, bus, outbox, clock });

    const app = createServiceApp({ name: 'admin', logger: log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);
    activityRoutes(app, { runtime, activity, now: () => clock.now() });
    sessionRoutes(app, { runtime, sessions, secureCookies: config.SECURE_COOKIES });
    settingsRoutes(app, { runtime, settings });
    adminsRoutes(app, { runtime, admins: adminsService });
    emergencyRoutes(app, { runtime, emergency });
    const cleanup = createCleanupService({ db, bus, clock });
    cleanupRoutes(app, { runtime, cleanup });
    const scheduler = startCleanupScheduler(cleanup, log);
    runtime.onClose(() => scheduler.stop());

    const rpc = serveSettingsRpc({ bus, log, settings });
    runtime.onClose(() => rpc.unsubscribe());

    let closed = false;
    return {
      app,
      runtime,
      cleanup,
      sessions,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await runtime.close();
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}
