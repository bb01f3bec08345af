import { notFound } from '@crewswap/kit';
import { CREW_LINK_MESSAGES as MESSAGES, type CrewLinkLike } from '@crewswap/proto';
import type { LinkRepository } from '../data/links';

/** Likes (`liked: true`) or unlikes a link; either is idempotent and answers the new count. */
export function createLikeLink(deps: { links: LinkRepository }) {
  return {
    async execute(input: { pilotId: string; id: string; liked: boolean }): Promise<CrewLinkLike> {
      const state = input.liked ? await deps.links.like(input.id, input.pilotId) : await deps.links.unlike(input.id, input.pilotId);
      if (!state) throw notFound(MESSAGES.notFound);
      return state;
    },
  };
}
export type LikeLink = ReturnType<typeof createLikeLink>;
