import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { CreateTripBody, SendNotificationsResponse, SwapMatch, SwappableBody, Trip, TripWithWarnings, UpdateTripBody } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';

export function sortTrips(trips: readonly Trip[]): Trip[] {
  return [...trips].sort((a, b) => a.startDate.localeCompare(b.startDate) || a.flightNoStart.localeCompare(b.flightNoStart));
}

export function useTrips(enabled = true) {
  return useQuery({
    queryKey: queryKeys.trips,
    queryFn: async () => sortTrips(await request<Trip[]>('/api/trips')),
    enabled,
  });
}

/** Puts the server's answer for one trip into the list, keeping the order by start date. */
export function storeTrip(queryClient: QueryClient, trip: Trip): void {
  queryClient.setQueryData<Trip[]>(queryKeys.trips, (trips) => {
    if (!trips) return trips;
    const { warnings: _warnings, ...plain } = trip as TripWithWarnings;
    const exists = trips.some((t) => t.id === trip.id);
    return sortTrips(exists ? trips.map((t) => (t.id === trip.id ? plain : t)) : [...trips, plain]);
  });
}

export function isTrip(value: unknown): value is Trip {
  return typeof value === 'object' && value !== null && 'id' in value && 'startDate' in value;
}

export const tripsApi = {
  create: (body: CreateTripBody) => request<TripWithWarnings>('/api/trips', { method: 'POST', body }),
  update: (id: string, body: UpdateTripBody) => request<TripWithWarnings>(`/api/trips/${id}`, { method: 'PATCH', body }),
  remove: (id: string) => request<unknown>(`/api/trips/${id}`, { method: 'DELETE' }),
  setSwappable: (id: string, body: SwappableBody) =>
    request<Trip>(`/api/trips/${id}/swappable`, { method: 'PATCH', body }),
  setDescription: (id: string, swapDescription: string | null) =>
    request<Trip | undefined>(`/api/trips/${id}/description`, { method: 'PATCH', body: { swapDescription } }),
  setRequested: (id: string, requested: boolean) =>
    request<Trip | undefined>(`/api/trips/${id}/requested`, { method: 'PATCH', body: { requested } }),
  sendNotifications: (id: string) =>
    request<SendNotificationsResponse>(`/api/trips/${id}/send-notifications`, { method: 'POST' }),
  matches: (id: string, range: { startDate?: string; endDate?: string }) => {
    const query = new URLSearchParams();
    if (range.startDate) query.set('startDate', range.startDate);
    if (range.endDate) query.set('endDate', range.endDate);
    const suffix = query.size > 0 ? `?${query.toString()}` : '';
    return request<SwapMatch[]>(`/api/trips/${id}/matches${suffix}`);
  },
};
