import { serveSessionIssued, serveSessionState, startPeriodic, startService, type ServiceOptions } from '@crewswap/kit';
import type { AdminConfig } from './config';
import { createActivityRepository } from './data/activity-repository';
import { createAdminRepository } from './data/admin-repository';
import { createCleanupRepository } from './data/cleanup-repository';
import { createSettingsRepository } from './data/settings-repository';
import { createSystemStateRepository } from './data/system-state-repository';
import { bootstrapMasterAdmin, seedSettings } from './domain/bootstrap';
import { startCleanupScheduler } from './domain/cleanup';
import { createAdminUseCases } from './domain/use-cases';
import { startAdminActivitySubscription } from './events/session-activity';
import { startSwapDecisionLog } from './events/swap-decisions';
import { serveSettingsRpc } from './events/settings-rpc';
import { migrations } from './migrations';
import { activityRoutes } from './routes/activity';
import { adminsRoutes } from './routes/admins';
import { cleanupRoutes } from './routes/cleanup';
import { emergencyRoutes } from './routes/emergency';
import { sessionRoutes } from './routes/session';
import { settingsRoutes } from './routes/settings';

export function createApp(config: AdminConfig, options: ServiceOptions = {}) {
  return startService({ name: 'admin', schema: 'admin', migrations, config, options }, async ({ app, runtime, clock }) => {
    const privateKey = runtime.keys.privateKey;
    if (!privateKey) throw new Error('admin signs admin sessions: set JWT_PRIVATE_KEY as well as JWT_PUBLIC_KEY');
    const { db, log, outbox, guard, bus } = runtime;
    const admins = createAdminRepository(db);
    const settings = createSettingsRepository(db);
    const cleanups = createCleanupRepository(db);
    const systemState = createSystemStateRepository(db);

    await bootstrapMasterAdmin({ db, admins, config, log });
    await seedSettings({ settings, config, clock, log });

    const activity = createActivityRepository(db);
    const useCases = createAdminUseCases({ db, bus, outbox, guard, clock, privateKey, productName: config.PRODUCT_NAME, admins, settings, cleanups, systemState, activity });
    const activityFeed = startAdminActivitySubscription({ bus, log, admins, now: () => clock.now() });
    runtime.onClose(() => activityFeed.stop());
    const swapDecisions = await startSwapDecisionLog({ db, bus, log, admins, activity });
    runtime.onClose(() => swapDecisions.stop());
    const idleSweep = startPeriodic({ name: 'end idle admin sessions', log, intervalMs: config.ADMIN_SESSION_SWEEP_MS, task: () => useCases.endIdleAdminSessions.execute() });
    runtime.onClose(() => idleSweep.stop());

    // First, so its hooks see every route's requests.
    activityRoutes(app, { runtime, activity, now: () => clock.now() });
    sessionRoutes(app, { runtime, admins, useCases, secureCookies: config.SECURE_COOKIES });
    settingsRoutes(app, { runtime, settings, changeSetting: useCases.changeSetting });
    adminsRoutes(app, { runtime, admins, useCases });
    emergencyRoutes(app, { runtime, systemState, useCases });
    cleanupRoutes(app, { runtime, clock, cleanups, configureCleanup: useCases.configureCleanup, runCleanup: useCases.runCleanup });

    const scheduler = startCleanupScheduler(useCases.runScheduledCleanup, log);
    runtime.onClose(() => scheduler.stop());
    const rpc = serveSettingsRpc({ bus, log, settings });
    runtime.onClose(() => rpc.unsubscribe());
    const issued = serveSessionIssued({ bus, log, service: 'admin', issued: async (sessionId) => (await admins.findSession(sessionId)) !== undefined });
    runtime.onClose(() => issued.unsubscribe());
    serveSessionState(app, async (sessionId) => {
      const session = await admins.findSession(sessionId);
      return { state: !session ? 'never-issued' : session.endedAt === null ? 'live' : 'ended' };
    });

    return { useCases };
  });
}
export type AdminService = Awaited<ReturnType<typeof createApp>>;
