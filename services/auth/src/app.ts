import { serveSessionIssued, serveSessionState, startService, type ServiceOptions } from '@crewswap/kit';
import type { Config } from './config';
import { createRepositories } from './domain/deps';
import { createPasswords } from './domain/passwords';
import { createAuthUseCases } from './domain/use-cases';
import { startActivitySubscription } from './events/activity';
import { serveSeedDemoPilots } from './events/seed';
import { serveSystemState } from './events/system';
import { countLoginOutcomes } from './login-metrics';
import { migrations } from './migrations';
import { adminRoutes } from './routes/admin';
import { authRoutes } from './routes/auth';
import { pilotGuards } from './routes/guards';
import { pilotRoutes } from './routes/pilots';

export function createApp(config: Config, options: ServiceOptions = {}) {
  return startService({ name: 'auth', schema: 'auth', migrations, config, options }, (parts) => {
    const { app, runtime, clock } = parts;
    const privateKey = runtime.keys.privateKey;
    if (!privateKey) throw new Error('auth signs pilot sessions and needs JWT_PRIVATE_KEY (or SIGNING_KEYS_DIR)');
    const { db, bus, log, outbox, guard } = runtime;
    const settings = parts.settings(config.SETTINGS_CACHE_MS);
    const repos = createRepositories(db);
    const useCases = createAuthUseCases({
      config,
      clock,
      log,
      db,
      bus,
      outbox,
      guard,
      settings,
      passwords: createPasswords(config.PASSWORD_HASH_COST),
      repos,
      privateKey,
    });

    countLoginOutcomes(app);
    const guards = pilotGuards(guard, repos);
    authRoutes(app, { config, guards, useCases });
    pilotRoutes(app, { repos, clock, settings, guards, useCases });
    adminRoutes(app, { guard, reads: useCases.adminReads, useCases });

    const system = serveSystemState({ bus, log, setSystemState: useCases.setSystemState });
    runtime.onClose(() => system.unsubscribe());
    const activity = startActivitySubscription({ bus, log, clock, sessions: repos.sessions });
    runtime.onClose(() => activity.stop());
    const issued = serveSessionIssued({ bus, log, service: 'auth', issued: (sessionId) => repos.sessions.exists(sessionId) });
    runtime.onClose(() => issued.unsubscribe());
    serveSessionState(app, (sessionId) => repos.sessions.liveness(sessionId));
    const seed = serveSeedDemoPilots({ bus, log, seedDemoPilots: useCases.seedDemoPilots });
    runtime.onClose(() => seed.unsubscribe());

    const sweep = () => useCases.sweepIdleSessions.execute();
    const sweeper = setInterval(() => {
      sweep().catch((error: unknown) => log.warn({ err: error }, 'idle session sweep failed'));
    }, config.SESSION_SWEEP_MS);
    sweeper.unref();
    runtime.onClose(() => clearInterval(sweeper));

    return {
      useCases,
      /** Ends idle sessions now (the sweeper also runs it every SESSION_SWEEP_MS). */
      sweepIdleSessions: sweep,
    };
  });
}
export type AuthApp = Awaited<ReturnType<typeof createApp>>;
