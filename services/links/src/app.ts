import { createServiceApp, registerRuntimeMetrics, startRuntime, systemClock, type Clock, type SigningKeys } from '@crewswap/kit';
import type { Config } from './config';
import { createLinkRepository } from './data/links';
import { createPilotRepository } from './data/pilots';
import { createCrewLinkService } from './domain/crew-links';
import { createAirportCheck } from './events/airports';
import { startPilotDirectory } from './events/pilot-directory';
import { migrations } from './migrations';
import { crewLinkRoutes } from './routes/crew-links';

export interface AppOptions {
  clock?: Clock;
  keys?: SigningKeys;
}

export async function createApp(config: Config, options: AppOptions = {}) {
  const clock = options.clock ?? systemClock;
  const runtime = await startRuntime({ name: 'links', schema: 'links', migrations, config, keys: options.keys });
  try {
    const { db, bus, log } = runtime;
    const links = createLinkRepository(db);
    const pilots = createPilotRepository(db);
    const crewLinks = createCrewLinkService({ links, airports: createAirportCheck(bus, config.AIRPORT_CHECK_TIMEOUT_MS), clock });

    const directory = await startPilotDirectory({ db, bus, log, pilots });
    runtime.onClose(() => directory.stop());

    const app = createServiceApp({ name: 'links', logger: log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);
    crewLinkRoutes(app, { guard: runtime.guard, links: crewLinks });

    return {
      app,
      runtime,
      useCases: { crewLinks },
      repositories: { links, pilots },
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
export type LinksApp = Awaited<ReturnType<typeof createApp>>;
