import { badRequest, notFound, type Db } from '@crewswap/kit';
import type { SendNotificationsResponse } from '@crewswap/proto';
import type { ReadModelRepository } from '../data/read-model';
import type { AlertOffer } from './alert-offer';
import { TRIP_NOT_FOUND } from './find-matches';

export const SENT_MESSAGE = 'Swap notifications sent to other pilots';
export const NOBODY_NEW_MESSAGE = 'No pilots to alert: every pilot this offer suits has already been told about it.';
export const NOT_OFFERED_MESSAGE = 'Offer this trip for swap before sending alerts.';
export const NO_DESCRIPTION_MESSAGE = 'Add a swap description before sending alerts.';

/**
 * The owner's Push Alert: alerts again, with the current description, every compatible pilot who
 * has not yet heard of this offer with it. The button is only live for an offered trip with a
 * description, and the server holds to that too.
 */
export function createPushAlert(deps: {
  db: Db;
  readModel: ReadModelRepository;
  alertOffer: AlertOffer;
  /** Resolves when the read model has applied what trips has published (or the wait is over). */
  catchUpWithTrips: () => Promise<void>;
}) {
  const { db, readModel, alertOffer, catchUpWithTrips } = deps;
  return {
    async execute(input: { pilotId: string; tripId: string }): Promise<SendNotificationsResponse> {
      // A description saved a moment ago must be the one that goes out.
      await catchUpWithTrips();
      const trip = await readModel.findTrip(input.tripId);
      if (!trip || trip.pilotId !== input.pilotId) throw notFound(TRIP_NOT_FOUND);
      if (!trip.isSwappable) throw badRequest(NOT_OFFERED_MESSAGE);
      if (!trip.swapDescription?.trim()) throw badRequest(NO_DESCRIPTION_MESSAGE);
      const { alerted } = await db.transaction((trx) => alertOffer.execute(trx, { tripId: trip.id }));
      return { message: alerted > 0 ? SENT_MESSAGE : NOBODY_NEW_MESSAGE, alerted };
    },
  };
}
export type PushAlert = ReturnType<typeof createPushAlert>;
