import { formatTripValue, type TripValue as Value } from '@crewswap/proto/browser';

/** What a trip is worth at a glance (issue 55): '4 days · 3 nights · block 16:40 · 2 sectors'. */
export function TripValue({ trip }: { trip: { startDate: string; endDate: string } & Partial<Pick<Value, 'nightsAway' | 'blockMinutes' | 'landings'>> }) {
  // A trip from before the value existed (an answer cached offline) still shows its days.
  const line = formatTripValue({ startDate: trip.startDate, endDate: trip.endDate, nightsAway: trip.nightsAway ?? 0, blockMinutes: trip.blockMinutes ?? null, landings: trip.landings ?? null });
  return <span className="trip-value">{line}</span>;
}
