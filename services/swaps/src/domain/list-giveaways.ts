import { badRequest, type Clock } from '@crewswap/kit';
import { outOfRangeDate, type Giveaway, type GiveawaysQuery } from '@crewswap/proto';
import type { GiveawayRepository } from '../data/giveaways';
import { giveawaysFor } from '../rules/swap-rule';

/**
 * Pick up a trip (issue 53): the give-aways (offers of type 'giveaway' or 'either') starting in
 * the pilot's date window that they could fly by the one-way swap rule (GIVEAWAY_RULE: rank,
 * aircraft, the LTC rule), never their own, never one on the days of a trip they hold, each
 * with its owner to contact.
 */
export function createListGiveaways(deps: {
  giveaways: GiveawayRepository;
  clock: Clock;
  /** Reads, and for a while reads again, until the answer is found: the read model learns of pilots from events. */
  awaitTrips: <T>(read: () => Promise<T>, found: (value: T) => boolean) => Promise<T>;
}) {
  const { giveaways, clock, awaitTrips } = deps;
  return {
    async execute(input: { pilotId: string; query: GiveawaysQuery }): Promise<Giveaway[]> {
      const { from, to } = input.query;
      const outOfRange = outOfRangeDate([from, to], clock.today());
      if (outOfRange) throw badRequest(outOfRange);
      if (to < from) throw badRequest('End date cannot be before start date');
      // A pilot who registered a moment ago may be quicker than auth's event: waited for, rather
      // than answered with an empty list that reads as "nothing to pick up".
      const picker = await awaitTrips(
        () => giveaways.picker(input.pilotId),
        (found) => found.record !== undefined,
      );
      if (!picker.record || picker.record.deleted) return [];
      return giveaways.list(giveawaysFor({ asker: picker.record, window: { from, to }, trips: picker.trips }), clock.today());
    },
  };
}
export type ListGiveaways = ReturnType<typeof createListGiveaways>;
