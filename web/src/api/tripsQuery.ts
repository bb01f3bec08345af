import { queryOptions } from '@tanstack/react-query';
import type { Trip } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';

export function sortTrips(trips: readonly Trip[]): Trip[] {
  return [...trips].sort((a, b) => a.startDate.localeCompare(b.startDate) || a.flightNoStart.localeCompare(b.flightNoStart));
}

/** The pilot's trips, in the list's order. Small on purpose: the app's first chunk asks for them (main.tsx). */
export const tripsQuery = queryOptions({
  queryKey: queryKeys.trips,
  queryFn: async () => sortTrips(await request<Trip[]>('/api/trips')),
});

