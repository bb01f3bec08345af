import { pushToEach, type Clock, type Executor, type Outbox, type Trx } from '@crewswap/kit';
import { isRosterChannel, type Trip, type TripChangeOrigin } from '@crewswap/proto';
import type { OfferViewRepository } from '../data/offer-views';

/** Pilots who found an offer in Find swaps this long ago or less are told when a roster takes it away. */
export const OFFER_VIEW_DAYS = 1;
export const OFFER_WITHDRAWN_MESSAGE = 'A trip you were looking at is no longer offered';

/**
 * A trip that is no longer offered (deleted, or updated not swappable): its Find swaps viewers are
 * forgotten, and when a roster import did it (the trip changed or vanished from the pilot's
 * roster), those who found it within the last day are told by push.
 */
export function createOfferWithdrawn(deps: { views: OfferViewRepository; outbox: Outbox; clock: Clock }) {
  const { views, outbox, clock } = deps;
  return {
    async execute(trx: Trx, input: { tripId: string; trip: Trip | undefined; origin: TripChangeOrigin | undefined }): Promise<{ told: number }> {
      const since = new Date(clock.now().getTime() - OFFER_VIEW_DAYS * 24 * 60 * 60 * 1000);
      const viewers = (await views.takeViewers(input.tripId, since, trx)).filter((pilotId) => pilotId !== input.trip?.pilotId);
      if (!input.origin || !isRosterChannel(input.origin.channel) || viewers.length === 0) return { told: 0 };
      await tellOfferGone(outbox, trx, input.tripId, input.trip, viewers);
      return { told: viewers.length };
    },
  };
}
/**
 * The push that says so, to each pilot (viewers, proposers): one per pilot and trip however many
 * ways they were looking. A deleted trip may be known by its id alone.
 */
export function tellOfferGone(outbox: Outbox, trx: Executor, tripId: string, trip: TripDays | undefined, pilotIds: readonly string[]): Promise<void> {
  const body = trip ? `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}, ${trip.startDate === trip.endDate ? trip.startDate : `${trip.startDate} to ${trip.endDate}`}` : OFFER_WITHDRAWN_MESSAGE;
  return pushToEach(outbox, trx, pilotIds, { kind: 'swap_offer', title: OFFER_WITHDRAWN_MESSAGE, body, url: '/', reason: 'roster_change' }, (pilotId) => `offer_withdrawn:${tripId}:${pilotId}`);
}
type TripDays = Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'startDate' | 'endDate'>;

export type OfferWithdrawn = ReturnType<typeof createOfferWithdrawn>;
