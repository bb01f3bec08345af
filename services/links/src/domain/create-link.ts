import type { Clock } from '@crewswap/kit';
import type { CrewLink, CrewLinkInput } from '@crewswap/proto';
import type { LinkRepository } from '../data/links';
import type { AirportCheck } from '../events/airports';
import { findLink, toFields } from './link-fields';

export function createCreateLink(deps: { links: LinkRepository; airports: AirportCheck; clock: Clock }) {
  return {
    async execute(input: { pilotId: string; body: CrewLinkInput }): Promise<CrewLink> {
      const id = await deps.links.insert(await toFields(deps.airports, input.body), input.pilotId, deps.clock.now());
      return findLink(deps.links, id, input.pilotId);
    },
  };
}
export type CreateLink = ReturnType<typeof createCreateLink>;
