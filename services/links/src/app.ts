import { startService, type ServiceOptions } from '@crewswap/kit';
import type { Config } from './config';
import { createLinkRepository } from './data/links';
import { createPilotRepository } from './data/pilots';
import { createCreateLink } from './domain/create-link';
import { createLikeLink } from './domain/like-link';
import { createLinkLookups } from './domain/link-lookups';
import { createRemoveLink } from './domain/remove-link';
import { createUpdateLink } from './domain/update-link';
import { createAirportCheck } from './events/airports';
import { startPilotDirectory } from './events/pilot-directory';
import { migrations } from './migrations';
import { crewLinkRoutes } from './routes/crew-links';

export function createApp(config: Config, options: ServiceOptions = {}) {
  return startService({ name: 'links', schema: 'links', migrations, config, options }, async ({ app, runtime, clock }) => {
    const { db, bus, log } = runtime;
    const links = createLinkRepository(db);
    const pilots = createPilotRepository(db);
    const airports = createAirportCheck(bus, config.AIRPORT_CHECK_TIMEOUT_MS);
    const useCases = {
      createLink: createCreateLink({ links, airports, clock }),
      updateLink: createUpdateLink({ links, airports, clock }),
      removeLink: createRemoveLink({ links }),
      likeLink: createLikeLink({ links }),
    };

    const directory = await startPilotDirectory({ db, bus, log, pilots });
    runtime.onClose(() => directory.stop());

    crewLinkRoutes(app, { guard: runtime.guard, links, lookups: createLinkLookups({ links, airports }), useCases });
    return { useCases, repositories: { links, pilots } };
  });
}
export type LinksApp = Awaited<ReturnType<typeof createApp>>;
