import { infiniteQueryOptions, useInfiniteQuery, useMutation, useMutationState, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateTripBody, OfferType, PilotStats, SendNotificationsResponse, SwapMatchPage, SwappableBody, Trip, TripWithWarnings, UpdateTripBody } from '@crewswap/proto';
import { useProductName } from './auth';
import { errorMessage, request } from './client';
import { queryKeys } from './keys';
import { failedTo, fixed, onFailure } from './mutations';

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

/** The pilot's trip counts and the community's (the empty state's roster information). */
export function usePilotStats() {
  return useQuery({ queryKey: queryKeys.stats, queryFn: () => request<PilotStats>('/api/stats') });
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

export function useAddTrip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTripBody) => request<TripWithWarnings>('/api/trips', { method: 'POST', body }),
    onSuccess: (trip) => storeTrip(queryClient, trip),
    meta: failedTo('Failed to add trip'),
  });
}

/** Edit Trip, or one field changed on the card (`what` names it: 'Failed to update aircraft'). */
export function useUpdateTrip(what = 'Failed to update trip') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateTripBody }) =>
      request<TripWithWarnings>(`/api/trips/${id}`, { method: 'PATCH', body: changes }),
    onSuccess: (trip) => storeTrip(queryClient, trip),
    meta: failedTo(what),
  });
}

/** How long a deleted trip's card fades before it leaves the list. */
export const DELETE_FADE_MS = 300;
const deleteTripKey = ['trips', 'delete'] as const;

/** Optimistic: the card fades and goes at once, and comes back if the server refuses. */
export function useDeleteTrip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: deleteTripKey,
    mutationFn: async (trip: Trip) => {
      // Settles to the refusal (or null) so that it can wait out the fade without going unhandled.
      const refusal = request<unknown>(`/api/trips/${trip.id}`, { method: 'DELETE' }).then(
        () => null,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, DELETE_FADE_MS));
      queryClient.setQueryData<Trip[]>(queryKeys.trips, (list) => list?.filter((t) => t.id !== trip.id));
      const error = await refusal;
      if (error !== null) throw error;
    },
    onError: (_error, trip) => storeTrip(queryClient, trip),
    meta: failedTo('Failed to delete trip'),
  });
}

/** The ids of the trips whose deletion is under way (their cards fade). */
export function useDeletingTripIds(): ReadonlySet<string> {
  const ids = useMutationState({
    filters: { mutationKey: deleteTripKey, status: 'pending' },
    select: (mutation) => (mutation.state.variables as Trip).id,
  });
  return new Set(ids);
}

/** Saves the swap description being typed and gives the text now saved, to send along. */
type SaveDescription = () => Promise<string>;

function setSwappable(id: string, body: SwappableBody): Promise<Trip> {
  return request<Trip>(`/api/trips/${id}/swappable`, { method: 'PATCH', body });
}

/** Swap: offers the trip (and clears Keep) with its description and search range. */
export function useOfferSwap() {
  const queryClient = useQueryClient();
  const productName = useProductName();
  return useMutation({
    mutationFn: async ({ trip, saveDescription, offerType }: { trip: Trip; saveDescription: SaveDescription; offerType: OfferType }) => {
      const text = await saveDescription();
      return setSwappable(trip.id, {
        isSwappable: true,
        offerType,
        requested: false,
        swapDescription: text === '' ? null : text,
        searchStartDate: trip.searchStartDate,
        searchEndDate: trip.searchEndDate,
      });
    },
    onSuccess: (trip) => storeTrip(queryClient, trip),
    meta: failedTo(`Failed to update ${productName} status`),
  });
}

/** An offered trip's offer type changes (Swap, Give away, Either): it stays offered as it was. */
export function useSetOfferType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trip, offerType }: { trip: Trip; offerType: OfferType }) => setSwappable(trip.id, { isSwappable: true, offerType }),
    onSuccess: (trip) => storeTrip(queryClient, trip),
    meta: failedTo('Failed to update how the trip is offered'),
  });
}

/** Cancel Swap Offer: the trip is no longer offered, and its found offers are cleared. */
export function useWithdrawSwap() {
  const queryClient = useQueryClient();
  const productName = useProductName();
  return useMutation({
    mutationFn: (trip: Trip) => setSwappable(trip.id, { isSwappable: false }),
    onSuccess: (trip) => {
      storeTrip(queryClient, trip);
      queryClient.setQueryData(queryKeys.matches(trip.id), null);
    },
    meta: failedTo(`Failed to update ${productName} status`),
  });
}

/** Keep on or off; Keep on clears the offer, the search range and the found offers (pilot spec section 4). */
export function useSetKeep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trip, requested }: { trip: Trip; requested: boolean }) =>
      request<Trip | undefined>(`/api/trips/${trip.id}/requested`, { method: 'PATCH', body: { requested } }),
    onSuccess: (answer, { trip, requested }) => {
      const kept = requested
        ? { ...trip, requested, isSwappable: false, searchStartDate: null, searchEndDate: null }
        : { ...trip, requested };
      storeTrip(queryClient, isTrip(answer) ? answer : kept);
      if (requested) queryClient.setQueryData(queryKeys.matches(trip.id), null);
    },
    meta: failedTo('Failed to save swap preference'),
  });
}

interface SearchRangeChange {
  trip: Trip;
  range: { from: string; to: string };
  /** Which end the pilot moved, for the failure's words. */
  moved: 'start' | 'end';
}

/** The Find & Alert date range; an empty end means the whole swap window. */
export function useSetSearchRange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trip, range }: SearchRangeChange) =>
      setSwappable(trip.id, {
        isSwappable: trip.isSwappable,
        searchStartDate: range.from === '' ? null : range.from,
        searchEndDate: range.to === '' ? null : range.to,
        skipNotification: true,
      }),
    onSuccess: (trip) => storeTrip(queryClient, trip),
    meta: onFailure<SearchRangeChange>((error, { moved }) => ({
      title: 'Error',
      description: `Failed to update search ${moved} date: ${errorMessage(error)}`,
    })),
  });
}

/** Push Alert: tells the pilots who could swap about the offer; answers the description it carried. */
export function usePushAlert() {
  return useMutation({
    mutationFn: async ({ trip, saveDescription }: { trip: Trip; saveDescription: SaveDescription }) => {
      const text = await saveDescription();
      await request<SendNotificationsResponse>(`/api/trips/${trip.id}/send-notifications`, { method: 'POST' });
      return text;
    },
    meta: failedTo('Failed to send notifications'),
  });
}

export function useSaveDescription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text }: { id: string; text: string | null }) =>
      request<Trip | undefined>(`/api/trips/${id}/description`, { method: 'PATCH', body: { swapDescription: text } }),
    onSuccess: (answer, { id, text }) => {
      if (isTrip(answer)) storeTrip(queryClient, answer);
      else {
        queryClient.setQueryData<Trip[]>(queryKeys.trips, (trips) =>
          trips?.map((t) => (t.id === id ? { ...t, swapDescription: text } : t)),
        );
      }
    },
    meta: failedTo('Failed to update description'),
  });
}

/** Find Swaps asks for this many offers at a time; the rest load as the pilot scrolls. */
export const SWAP_OFFERS_PAGE = 50;

/** The dates a Find Swaps search covers; a bound left out is the trip's own window. */
export interface SwapSearchRange {
  startDate?: string;
  endDate?: string;
}

/** One search's offers, page by page in relevance order (Mutual, Urgent, then by date). */
function swapOfferPages(tripId: string, range: SwapSearchRange) {
  return infiniteQueryOptions({
    queryKey: queryKeys.matchPages(tripId, range),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(SWAP_OFFERS_PAGE) });
      if (range.startDate) query.set('startDate', range.startDate);
      if (range.endDate) query.set('endDate', range.endDate);
      if (pageParam) query.set('cursor', pageParam);
      return request<SwapMatchPage>(`/api/trips/${tripId}/matches?${query.toString()}`);
    },
    getNextPageParam: (page: SwapMatchPage) => page.nextCursor ?? undefined,
  });
}

/** The search Find Swaps last ran on a trip: null until found, when none were found, or cleared. */
export function useFoundSwapOffers(tripId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.matches(tripId);
  // Filled only by useFindSwapOffers.
  const { data } = useQuery<SwapSearchRange | null>({ queryKey: key, queryFn: () => null, enabled: false });
  return { range: data ?? null, clear: () => queryClient.setQueryData(key, null) };
}

/**
 * The offers of a search, as far as loaded: the first page comes with Find Swaps, the next ones
 * when the list asks (fetchNextPage) as the pilot scrolls.
 */
export function useSwapOfferPages(tripId: string, range: SwapSearchRange) {
  // Never fetched on its own: Find Swaps starts each search afresh.
  return useInfiniteQuery({ ...swapOfferPages(tripId, range), enabled: false });
}

/** Find Swaps: the first page of offers inside the trip's search range; answers how many there are in all. */
export function useFindSwapOffers(tripId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.matches(tripId);
  return useMutation({
    mutationFn: async (range: SwapSearchRange) => {
      const pages = swapOfferPages(tripId, range);
      // Each press is a new search: pages loaded before (maybe stale) are dropped.
      queryClient.removeQueries({ queryKey: ['match-pages', tripId] });
      const found = await queryClient.fetchInfiniteQuery(pages);
      return { range, total: found.pages[0]?.total ?? 0 };
    },
    onSuccess: ({ range, total }) => queryClient.setQueryData(key, total === 0 ? null : range),
    onError: () => queryClient.setQueryData(key, null),
    meta: fixed('Error', 'Failed to find compatible swaps.'),
  });
}
