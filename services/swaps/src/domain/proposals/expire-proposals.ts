import type { Clock, Executor, Outbox } from '@crewswap/kit';
import { EXPIRY_REASONS, SUBJECTS } from '@crewswap/proto';
import type { ProposalRepository } from '../../data/proposals';
import { tripKey } from '../../rules/trip-key';
import type { TripChange } from '../../data/read-model';
import { tellOfferGone } from '../offer-withdrawn';
import { cancelAgreedSwap } from './close-swap';
import type { ProposalEvents } from './events';

/**
 * Open proposals close by themselves when either trip starts, is deleted or changes (flights,
 * dates, route or aircraft, as a roster import does); a trip the cleanup removes takes its
 * proposals and agreements with it. Agreements outlive trip changes (crewing's swap changes them)
 * and a crewing-approved swap outlives its trips' deletion; one still awaiting crewing does not.
 */
export function createExpireProposals(deps: { proposals: ProposalRepository; events: ProposalEvents; outbox: Outbox; clock: Clock }) {
  const { proposals, events, outbox, clock } = deps;
  const expire = async (trx: Executor, ids: string[], reason: string) => {
    const expired = await proposals.expire(ids, reason, clock.now(), trx);
    for (const proposal of expired) await events.proposal(trx, SUBJECTS.proposalExpired, proposal, proposal.owner.pilot.id);
    return expired;
  };
  /** Who proposed for an offered trip that changed or went is told it is no longer offered (issue 38). */
  const tellProposers = async (trx: Executor, tripId: string, expired: Awaited<ReturnType<typeof expire>>) => {
    const onThisOffer = expired.filter((proposal) => proposal.owner.trip.id === tripId);
    const first = onThisOffer[0];
    if (first) await tellOfferGone(outbox, trx, tripId, first.owner.trip, onThisOffer.map((proposal) => proposal.proposer.pilot.id));
  };
  return {
    /** A trip change the read model applied (inside its transaction). */
    async tripChanged(trx: Executor, change: TripChange, purged: boolean): Promise<void> {
      if (change.kind === 'trip') {
        await tellProposers(trx, change.trip.id, await expire(trx, await proposals.openOnChangedTrip(change.trip.id, tripKey(change.trip), trx), EXPIRY_REASONS.changed));
        return;
      }
      await tellProposers(trx, change.tripId, await expire(trx, await proposals.openOnChangedTrip(change.tripId, null, trx), EXPIRY_REASONS.deleted));
      if (purged) {
        await proposals.pruneTrip(change.tripId, trx);
        return;
      }
      // A swap awaiting crewing cannot stand on a trip that is gone (deleted in the app, or left
      // out of an imported roster): it is cancelled by the trip's pilot, and the other pilot told.
      const agreement = await proposals.agreedOnTrip(change.tripId, trx);
      if (agreement) await cancelAgreedSwap({ proposals, events }, trx, { agreement, by: change.pilotId, at: clock.now() });
    },

    /** The periodic sweep: proposals one of whose trips has started. */
    async started(trx: Executor): Promise<number> {
      return (await expire(trx, await proposals.openStartedBy(clock.today(), trx), EXPIRY_REASONS.started)).length;
    },
  };
}
export type ExpireProposals = ReturnType<typeof createExpireProposals>;
