import type { Trip } from '@crewswap/proto';

/** What a pilot's calendar shows of a trip's place in swapping, in its event's title. */
export type SwapState = 'Swap agreed' | 'Offered' | 'Kept';

/**
 * The one place the feed chooses a trip's swap state. A swap agreed in the app (and not cancelled
 * or refused by crewing) comes first; a trip is otherwise offered or kept, never both (offering
 * clears Keep, keeping clears the offer).
 */
export function swapStateOf(trip: Pick<Trip, 'isSwappable' | 'requested'>, agreed = false): SwapState | null {
  if (agreed) return 'Swap agreed';
  if (trip.isSwappable) return 'Offered';
  if (trip.requested) return 'Kept';
  return null;
}
