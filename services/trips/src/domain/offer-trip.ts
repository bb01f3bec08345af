import type { SwappableBody, Trip, TripChangeOrigin } from '@crewswap/proto';
import type { TripFields } from '../data/trips';
import { checkAcceptedDates, checkSearchRange, checkSwapDescription } from './rules';
import type { TripDeps, TripWork } from './trip-work';

/** Offers a trip (for swap, to give away, or either) or takes it off offer (the swappable switch), with its search range. */
export function createOfferTrip(deps: Pick<TripDeps, 'clock'> & { work: TripWork }) {
  const { clock, work } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: SwappableBody; origin: TripChangeOrigin }): Promise<Trip> {
      const { pilotId, id, body } = input;
      checkAcceptedDates([body.searchStartDate, body.searchEndDate], clock.today());
      return work.asPilot(pilotId, async (trx, pilot) => {
        const before = await work.ownTrip(trx, pilotId, id);
        const change: Partial<TripFields> = { isSwappable: body.isSwappable };
        // Left out, the trip keeps how it was offered: an app that never sends it changes nothing.
        if (body.offerType !== undefined) change.offerType = body.offerType;
        const description = checkSwapDescription(body.swapDescription);
        if (description !== undefined) change.swapDescription = description;
        if (body.searchStartDate !== undefined) change.searchStartDate = body.searchStartDate;
        if (body.searchEndDate !== undefined) change.searchEndDate = body.searchEndDate;
        if (body.isSwappable) {
          // Offering resets Keep.
          change.requested = false;
        } else if (body.requested) {
          Object.assign(change, { requested: true, searchStartDate: null, searchEndDate: null });
        } else if (body.requested === false) {
          change.requested = false;
        }
        const from = change.searchStartDate === undefined ? before.searchStartDate : change.searchStartDate;
        const to = change.searchEndDate === undefined ? before.searchEndDate : change.searchEndDate;
        if ((body.searchStartDate || body.searchEndDate) && (from || to)) {
          checkSearchRange(before.startDate, from, to, await work.searchWindow(pilot));
        }
        return work.save(trx, before, change, input.origin, { notifyOffer: !body.skipNotification });
      });
    },
  };
}
export type OfferTrip = ReturnType<typeof createOfferTrip>;
