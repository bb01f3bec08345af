import type { Trx } from '@crewswap/kit';
import type { SwapAgreement } from '@crewswap/proto';
import type { TripRepository } from '../data/trips';
import { SYSTEM_ORIGIN, type TripEvents } from './events';

/**
 * A swap agreed in swaps takes both trips off offer (their matches clear). The offers are not put
 * back if the swap is cancelled: the owner offers again with one tap.
 */
export function createWithdrawAgreedOffers(deps: { trips: TripRepository; events: TripEvents }) {
  return {
    async execute(trx: Trx, agreement: Pick<SwapAgreement, 'proposer' | 'owner'>): Promise<void> {
      for (const side of [agreement.proposer, agreement.owner]) {
        const trip = await deps.trips.findOwn(side.pilot.id, side.trip.id, trx, true);
        if (!trip?.isSwappable) continue;
        const { trip: withdrawn, version } = await deps.trips.update(trip.id, { isSwappable: false }, trx);
        await deps.events.updated(trx, withdrawn, version, SYSTEM_ORIGIN);
      }
    },
  };
}
export type WithdrawAgreedOffers = ReturnType<typeof createWithdrawAgreedOffers>;
