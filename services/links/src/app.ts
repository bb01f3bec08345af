import { startService, type ServiceOptions } from '@crewswap/kit';
import type { Config } from './config';
import { createLinkRepository } from './data/links';
import { createPilotRepository } from './data/pilots';
import { createCrewLinkService } from './domain/crew-links';
import { createAirportCheck } from './events/airports';
import { startPilotDirectory } from './events/pilot-directory';
import { migrations } from './migrations';
import { crewLinkRoutes } from './routes/crew-links';

export function createApp(config: Config, options: ServiceOptions = {}) {
  return startService({ name: 'links', schema: 'links', migrations, config, options }, async ({ app, runtime, clock }) => {
    const { db, bus, log } = runtime;
    const links = createLinkRepository(db);
    const pilots = createPilotRepository(db);
    const crewLinks = createCrewLinkService({ links, airports: createAirportCheck(bus, config.AIRPORT_CHECK_TIMEOUT_MS), clock });

    const directory = await startPilotDirectory({ db, bus, log, pilots });
    runtime.onClose(() => directory.stop());

    crewLinkRoutes(app, { guard: runtime.guard, links: crewLinks });
    return { useCases: { crewLinks }, repositories: { links, pilots } };
  });
}
export type LinksApp = Awaited<ReturnType<typeof createApp>>;
