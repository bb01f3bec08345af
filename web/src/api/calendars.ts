import { useMutation, useQueries, useQuery } from '@tanstack/react-query';
import type { CrossoverTripsResponse, MasterCalendarResponse, SwapMatch, Trip, UsualRequestsResponse } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';
import { titled } from './mutations';

/** Master Calendar: every Master-Roster-on pilot of this rank and fleet, with their trips. */
export function useMasterCalendar(rank: string, fleet: string) {
  return useQuery({
    queryKey: queryKeys.masterCalendar(rank, fleet),
    // Other pilots change these: each opening reads them again (showing the last answer meanwhile).
    refetchOnMount: 'always',
    queryFn: () => request<MasterCalendarResponse>(`/api/master-calendar/${rank}/${fleet}`),
  });
}

/** Crossover Calendar: the crossover flights overlapping the pilot's own trips. */
export function useCrossoverTrips() {
  return useQuery({
    queryKey: queryKeys.crossoverTrips,
    // Other pilots change these: each opening reads them again (showing the last answer meanwhile).
    refetchOnMount: 'always',
    queryFn: () => request<CrossoverTripsResponse>('/api/crossover-trips'),
  });
}

/** Swap Calendar: the offers matching each of the pilot's trips, within each trip's search range. */
export function useCalendarMatches(searches: ReadonlyArray<{ trip: Trip; startDate: string; endDate: string }>) {
  return useQueries({
    queries: searches.map(({ trip, startDate, endDate }) => ({
      queryKey: queryKeys.calendarMatches(trip.id, startDate, endDate),
      // Other pilots change these: each opening reads them again (showing the last answer meanwhile).
      refetchOnMount: 'always',
      queryFn: async () => {
        const query = new URLSearchParams({ startDate, endDate });
        // The spec: a failed look-up yields an empty list for that trip.
        return request<SwapMatch[]>(`/api/trips/${trip.id}/matches?${query.toString()}`).catch((): SwapMatch[] => []);
      },
    })),
  });
}

/** Trip Search (Usual Requests): a look-up the Search button starts. */
export function useTripSearch() {
  return useMutation({
    mutationFn: (query: string) => request<UsualRequestsResponse>(`/api/usual-requests/search?${query}`),
    meta: titled('Error'),
  });
}
