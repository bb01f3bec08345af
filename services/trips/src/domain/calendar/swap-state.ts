import type { Trip } from '@crewswap/proto';

/** What a pilot's calendar shows of a trip's place in swapping, in its event's title. */
export type SwapState = 'Offered' | 'Kept';

/**
 * The one place the feed chooses a trip's swap state. A trip is offered or kept, never both
 * (offering clears Keep, keeping clears the offer). An agreed swap ('Swap agreed', from swap
 * proposals) belongs here too, ahead of the others, once trips knows of it.
 */
export function swapStateOf(trip: Pick<Trip, 'isSwappable' | 'requested'>): SwapState | null {
  if (trip.isSwappable) return 'Offered';
  if (trip.requested) return 'Kept';
  return null;
}
