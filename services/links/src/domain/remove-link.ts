import { notFound } from '@crewswap/kit';
import { CREW_LINK_MESSAGES as MESSAGES } from '@crewswap/proto';
import type { LinkRepository } from '../data/links';

export function createRemoveLink(deps: { links: LinkRepository }) {
  return {
    async execute(input: { id: string }): Promise<void> {
      if (!(await deps.links.remove(input.id))) throw notFound(MESSAGES.notFound);
    },
  };
}
export type RemoveLink = ReturnType<typeof createRemoveLink>;
