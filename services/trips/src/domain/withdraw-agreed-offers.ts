import type { Trx } from '@crewswap/kit';
import type { SwapAgreement } from '@crewswap/proto';
import type { AgreedSwapRepository } from '../data/agreed-swaps';
import type { TripRepository } from '../data/trips';
import { SYSTEM_ORIGIN, type TripEvents } from './events';

/**
 * A swap agreed in swaps takes both trips off offer (their matches clear). The offers are not put
 * back if the swap is cancelled: the owner offers again with one tap.
 */
export function createWithdrawAgreedOffers(deps: { trips: TripRepository; agreedSwaps: AgreedSwapRepository; events: TripEvents }) {
  return {
    async execute(trx: Trx, agreement: Pick<SwapAgreement, 'id' | 'proposer' | 'owner'>): Promise<void> {
      // A pick-up's proposer gives no trip: only the offered one is in the agreement.
      const sides = [agreement.proposer, agreement.owner].flatMap((side) => (side.trip ? [{ pilotId: side.pilot.id, tripId: side.trip.id }] : []));
      await deps.agreedSwaps.record(agreement.id, sides.map((side) => side.tripId), trx);
      for (const side of sides) {
        const trip = await deps.trips.findOwn(side.pilotId, side.tripId, trx, true);
        if (!trip?.isSwappable) continue;
        const { trip: withdrawn, version } = await deps.trips.update(trip.id, { isSwappable: false }, trx);
        await deps.events.updated(trx, withdrawn, version, SYSTEM_ORIGIN);
      }
    },
  };
}
/** A swap cancelled or refused by crewing: its trips are no longer 'Swap agreed' (their offers stay off). */
export function createEndAgreedSwap(deps: { agreedSwaps: AgreedSwapRepository }) {
  return {
    execute: (trx: Trx, agreement: Pick<SwapAgreement, 'id'>) => deps.agreedSwaps.clear(agreement.id, trx),
  };
}
export type EndAgreedSwap = ReturnType<typeof createEndAgreedSwap>;
export type WithdrawAgreedOffers = ReturnType<typeof createWithdrawAgreedOffers>;
