import type { Clock } from '@crewswap/kit';
import type { PilotStats } from '@crewswap/proto';
import type { StatsRepository } from '../../data/stats';
import type { WhatsappGroupRepository } from '../../data/whatsapp-groups';

/**
 * `GET /api/stats`: the caller's own trip counts (what a roster upload changed) and the size of
 * the community: pilots, pilots with Master Roster on, trips not yet ended, open offers and
 * WhatsApp groups with a link. Counts only, never another pilot's details.
 */
export function createGetPilotStats(deps: { stats: StatsRepository; groups: WhatsappGroupRepository; clock: Clock }) {
  return {
    async execute(input: { pilotId: string }): Promise<PilotStats> {
      const today = deps.clock.today();
      const [myTrips, community, activeWhatsappGroups] = await Promise.all([
        deps.stats.own(input.pilotId, today),
        deps.stats.community(today),
        deps.groups.countActive(today),
      ]);
      return { today, myTrips, community: { ...community, activeWhatsappGroups } };
    },
  };
}
