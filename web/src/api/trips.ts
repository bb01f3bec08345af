import { infiniteQueryOptions, onlineManager, useInfiniteQuery, useMutation, useMutationState, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { daysBetween } from '@crewswap/proto/browser';
import type { CreateTripBody, MatchSort, OfferType, Pilot, PilotStats, SendNotificationsResponse, SwapMatchPage, SwappableBody, Trip, TripWithWarnings, UpdateTripBody } from '@crewswap/proto';
import { useProductName } from './auth';
import { errorMessage, request } from './client';
import { queryKeys } from './keys';
import { byStartThenFlight } from './tripOrder';
import { failedTo, fixed } from './mutations';
import { newKey, queueChange, unreachable, unsentTripId, unsentTrips, useQueuedChange, type QueuedChange } from './offlineQueue';

export function sortTrips(trips: readonly Trip[]): Trip[] {
  return [...trips].sort(byStartThenFlight);
}

export function useTrips(enabled = true) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.trips,
    // New trips still on the device (offlineQueue.ts) stay in the list until the server has them.
    queryFn: async () => sortTrips([...(await request<Trip[]>('/api/trips')), ...unsentTrips(queryClient)]),
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

/**
 * Add Trip. Online the server answers at once (its refusal stays in the form). Offline, or when
 * the call gets no answer, the trip waits on the device (offlineQueue.ts) as a card of its own and
 * the answer is null. The Idempotency-Key is made first, so a trip whose answer was lost and is
 * sent again from the queue is added once.
 */
export function useAddTrip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateTripBody): Promise<TripWithWarnings | null> => {
      const change = newTripChange(body, queryClient.getQueryData<Pilot | null>(queryKeys.currentPilot)?.id ?? '');
      const wait = () => {
        queueChange(queryClient, change);
        return null;
      };
      if (!onlineManager.isOnline()) return wait();
      try {
        return await request<TripWithWarnings>('/api/trips', { method: 'POST', body, idempotencyKey: change.idempotencyKey });
      } catch (error) {
        if (unreachable(error)) return wait();
        throw error;
      }
    },
    onSuccess: (trip) => trip && storeTrip(queryClient, trip),
    meta: failedTo('Failed to add trip'),
  });
}

/** A new trip as a queued change, with the card it shows as until the server answers. */
function newTripChange(body: CreateTripBody, pilotId: string): QueuedChange {
  const idempotencyKey = newKey();
  const id = unsentTripId(idempotencyKey);
  const now = new Date().toISOString();
  const trip: Trip = {
    id,
    pilotId,
    flightNoStart: body.flightNoStart ?? '',
    flightNoEnd: body.flightNoEnd ?? '',
    aircraft: body.aircraft ?? null,
    route: body.route ?? '',
    startDate: body.startDate,
    endDate: body.endDate,
    isSwappable: false,
    offerType: 'swap',
    training: body.training ?? false,
    requested: (body.requested ?? false) || (body.companions ?? null) !== null,
    companions: body.companions ?? null,
    swapDescription: null,
    icsDescription: null,
    searchStartDate: null,
    searchEndDate: null,
    // The form sends no aircraft only for a standby duty.
    isStandby: body.aircraft === null,
    source: 'manual',
    reportAt: body.reportAt ?? null,
    releaseAt: body.releaseAt ?? null,
    sectors: null,
    blockMinutes: null,
    dutyMinutes: null,
    nightsAway: Math.max(0, daysBetween(body.startDate, body.endDate)),
    landings: null,
    createdAt: now,
    updatedAt: now,
  };
  return { kind: 'newTrip', method: 'POST', path: '/api/trips', body, idempotencyKey, card: id, trip, failure: { title: 'Error', what: 'Failed to add trip' } };
}

/**
 * Edit Trip, or one field changed on the card (`what` names it: 'Failed to update aircraft').
 * Offline it waits to be sent (offlineQueue.ts), the card showing the change meanwhile.
 */
export function useUpdateTrip(what = 'Failed to update trip') {
  return useQueuedChange('trip', ({ id, changes }: { id: string; changes: UpdateTripBody }) => ({
    method: 'PATCH',
    path: `/api/trips/${id}`,
    body: changes,
    card: id,
    patch: changes as Partial<Trip>,
    failure: { title: 'Error', what },
  }));
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

/** A change of how the trip is offered, queued like every change to the pilot's trips (offlineQueue.ts). */
function swappable(id: string, body: SwappableBody, what: string, patch: Partial<Trip> = {}, clearMatches = false) {
  const { skipNotification: _skip, ...shown } = body;
  return { method: 'PATCH' as const, path: `/api/trips/${id}/swappable`, body, card: id, patch: { ...shown, ...patch }, clearMatches, failure: { title: 'Error', what } };
}

/**
 * Swap: offers the trip (and clears Keep) with its description and search range. The description
 * being typed is saved first (it is queued before the offer, so it goes first).
 */
export function useOfferSwap() {
  const productName = useProductName();
  const change = useQueuedChange('trip', ({ trip, text, offerType }: { trip: Trip; text: string; offerType: OfferType }) =>
    swappable(
      trip.id,
      {
        isSwappable: true,
        offerType,
        requested: false,
        swapDescription: text === '' ? null : text,
        searchStartDate: trip.searchStartDate,
        searchEndDate: trip.searchEndDate,
      },
      `Failed to update ${productName} status`,
    ),
  );
  return {
    ...change,
    mutate: (input: { trip: Trip; saveDescription: SaveDescription; offerType: OfferType }, options?: Parameters<typeof change.mutate>[1]) =>
      void input.saveDescription().then((text) => change.mutate({ trip: input.trip, text, offerType: input.offerType }, options)),
  };
}

/** An offered trip's offer type changes (Swap, Give away, Either): it stays offered as it was. */
export function useSetOfferType() {
  return useQueuedChange('trip', ({ trip, offerType }: { trip: Trip; offerType: OfferType }) =>
    swappable(trip.id, { isSwappable: true, offerType }, 'Failed to update how the trip is offered'),
  );
}

/** Cancel Swap Offer: the trip is no longer offered, and its found offers are cleared. */
export function useWithdrawSwap() {
  const productName = useProductName();
  return useQueuedChange('trip', (trip: Trip) => swappable(trip.id, { isSwappable: false }, `Failed to update ${productName} status`, {}, true));
}

/** Keep on or off; Keep on clears the offer, the search range and the found offers (pilot spec section 4). */
export function useSetKeep() {
  return useQueuedChange('trip', ({ trip, requested }: { trip: Trip; requested: boolean }) => ({
    method: 'PATCH',
    path: `/api/trips/${trip.id}/requested`,
    body: { requested },
    card: trip.id,
    patch: requested ? { requested, isSwappable: false, searchStartDate: null, searchEndDate: null } : { requested },
    clearMatches: requested,
    failure: { title: 'Error', what: 'Failed to save swap preference' },
  }));
}

interface SearchRangeChange {
  trip: Trip;
  range: { from: string; to: string };
  /** Which end the pilot moved, for the failure's words. */
  moved: 'start' | 'end';
}

/** The Find & Alert date range; an empty end means the whole swap window. */
export function useSetSearchRange() {
  return useQueuedChange('trip', ({ trip, range, moved }: SearchRangeChange) =>
    swappable(
      trip.id,
      {
        isSwappable: trip.isSwappable,
        searchStartDate: range.from === '' ? null : range.from,
        searchEndDate: range.to === '' ? null : range.to,
        skipNotification: true,
      },
      `Failed to update search ${moved} date`,
    ),
  );
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
  return useQueuedChange('trip', ({ id, text }: { id: string; text: string | null }) => ({
    method: 'PATCH',
    path: `/api/trips/${id}/description`,
    body: { swapDescription: text },
    card: id,
    patch: { swapDescription: text },
    failure: { title: 'Error', what: 'Failed to update description' },
  }));
}

/** Find Swaps asks for this many offers at a time; the rest load as the pilot scrolls. */
export const SWAP_OFFERS_PAGE = 50;

/** The dates a Find Swaps search covers; a bound left out is the trip's own window. */
export interface SwapSearchRange {
  startDate?: string;
  endDate?: string;
  /** The list's order and whether offers the pilot may not fly are left out (issue 55); relevance and all by default. */
  sort?: MatchSort;
  legalOnly?: boolean;
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
      if (range.sort && range.sort !== 'relevance') query.set('sort', range.sort);
      if (range.legalOnly) query.set('legalOnly', 'true');
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

/**
 * The found offers in another order, or with offers the pilot may not fly hidden (issue 55): the
 * search stays shown even when nothing is left, so the pilot can switch back.
 */
export function useReorderSwapOffers(tripId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (range: SwapSearchRange) => {
      await queryClient.fetchInfiniteQuery(swapOfferPages(tripId, range));
      return range;
    },
    onSuccess: (range) => queryClient.setQueryData(queryKeys.matches(tripId), range),
    meta: fixed('Error', 'Failed to find compatible swaps.'),
  });
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
