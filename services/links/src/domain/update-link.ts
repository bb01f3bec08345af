import { notFound, type Clock } from '@crewswap/kit';
import { CREW_LINK_MESSAGES as MESSAGES, type CrewLink, type CrewLinkInput } from '@crewswap/proto';
import type { LinkRepository } from '../data/links';
import type { AirportCheck } from '../events/airports';
import { findLink, toFields } from './link-fields';

export function createUpdateLink(deps: { links: LinkRepository; airports: AirportCheck; clock: Clock }) {
  const { links } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: CrewLinkInput }): Promise<CrewLink> {
      const { pilotId, id } = input;
      // A missing link is a 404 before any airport check, so a deleted link never says "unknown code".
      await findLink(links, id, pilotId);
      if (!(await links.update(id, await toFields(deps.airports, input.body), pilotId, deps.clock.now()))) throw notFound(MESSAGES.notFound);
      return findLink(links, id, pilotId);
    },
  };
}
export type UpdateLink = ReturnType<typeof createUpdateLink>;
