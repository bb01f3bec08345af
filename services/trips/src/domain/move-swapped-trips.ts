import type { Logger, Trx } from '@crewswap/kit';
import type { EventDataMap } from '@crewswap/proto';
import type { AgreedSwapRepository } from '../data/agreed-swaps';
import { SYSTEM_ORIGIN, type TripEvents } from './events';

/**
 * Crewing approved a swap at the desk: its trips change hands, in one transaction, and the
 * usual trip events tell everything that shows trips (swaps' read model, realtime for both
 * pilots, crew lists and calendars read the table). A move applies once per agreement: a trip
 * moves only while its old pilot still holds it, so a redelivered event changes nothing.
 */
export function createMoveSwappedTrips(deps: { agreedSwaps: AgreedSwapRepository; events: TripEvents; log: Logger }) {
  return {
    async execute(trx: Trx, event: EventDataMap['swaps.agreement.approved']): Promise<void> {
      // Approved by a pilot before the crewing desk existed: nothing was ever to move.
      if (!event.moves) return;
      for (const move of event.moves) {
        const moved = await deps.agreedSwaps.moveTrip(move, trx);
        if (!moved) {
          deps.log.warn({ agreementId: event.agreement.id, tripId: move.tripId }, 'approved swap: trip no longer held by its old pilot, left as it is');
          continue;
        }
        await deps.events.updated(trx, moved.trip, moved.version, SYSTEM_ORIGIN, move.fromPilotId);
      }
      // Done: the trips are no longer 'Swap agreed', they are simply the new pilots' trips.
      await deps.agreedSwaps.clear(event.agreement.id, trx);
    },
  };
}
export type MoveSwappedTrips = ReturnType<typeof createMoveSwappedTrips>;
