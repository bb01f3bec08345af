import { MutationObserver, onlineManager, useMutation, useMutationState, useQueryClient, type Mutation, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { NotificationPreferences, SwapProposalView, Trip } from '@crewswap/proto';
import { toast } from '../shared/toast';
import { ApiError, errorMessage, request, type RequestOptions } from './client';
import { queryKeys } from './keys';
import { byStartThenFlight } from './tripOrder';
import { NEEDS_CONNECTION } from './online';

/**
 * Changes made offline wait and go (issue 57). A pilot's change to their own trips and
 * preferences is a TanStack Query mutation that waits (paused) while the server cannot be
 * reached, is kept on the device with the query cache (persist.ts), and is sent, in order, once
 * it can be: the library's paused mutations, resumed after a restart because each kind's
 * mutationFn is registered here at start (`setMutationDefaults`), not in the component that made
 * it. Each change carries an Idempotency-Key made when it was queued, so a change sent again
 * after a lost answer is answered by the server as the first time and never applied twice.
 *
 * What a change holds is plain data (it is stored in IndexedDB): where it goes, what it sends,
 * which card shows it, and what the pilot sees meanwhile.
 */
export interface QueuedChange {
  kind: ChangeKind;
  method: NonNullable<RequestOptions['method']>;
  path: string;
  body?: unknown;
  idempotencyKey: string;
  /** The card that shows it waiting, or the server's refusal: a trip's id, or `proposal:<id>`. */
  card: string;
  /** The trip as the pilot sees it until the server answers (kind 'trip'). */
  patch?: Partial<Trip>;
  /** Withdrawing or Keep: the trip's found offers go. */
  clearMatches?: boolean;
  /** The words of the refusal's toast, the spec's catalogue's: 'Error', 'Failed to update description: {server message}'. */
  failure: { title: string; what?: string; fixed?: string };
  /** The proposal as the pilot sees it until the server answers (kind 'proposal'). */
  proposalStatus?: SwapProposalView['status'];
  /** A new trip as the pilot sees it until the server answers (kind 'newTrip'): its id, and the card's, is a temporary one. */
  trip?: Trip;
}

export type ChangeKind = 'trip' | 'newTrip' | 'proposal' | 'preferences' | 'wish';

const QUEUED = 'queued';
const keyOf = (kind: ChangeKind) => [QUEUED, kind] as const;
/** One line: each change waits for the one before it, as the pilot made them. */
const SCOPE = { id: 'pilot-changes' };
const MAX_RETRY_DELAY_MS = 30_000;

/** The server was not reached, or the gateway could not reach the service: try again later. */
export function unreachable(error: unknown): boolean {
  if (error instanceof ApiError) return [502, 503, 504].includes(error.status) || (error.status === 409 && error.message === STILL_PROCESSING);
  return error instanceof Error && error.message === NEEDS_CONNECTION;
}
// The kit's answer to a duplicate sent while its first is still running: it will be done shortly.
const STILL_PROCESSING = 'A request with this Idempotency-Key is still being processed.';

export function isQueued(mutation: Pick<Mutation, 'options'>): boolean {
  return mutation.options.mutationKey?.[0] === QUEUED;
}

// wishes.ts's key, named here too: that file imports this one.
const WISHES = ['notifications', 'wishes'] as const;

/**
 * A trip added offline has a temporary id until the server gives it its own: its card shows it
 * waiting, and nothing else can be done with it until then (the server knows no such id).
 */
const UNSENT_TRIP_PREFIX = 'unsent-trip:';
export const unsentTripId = (idempotencyKey: string) => UNSENT_TRIP_PREFIX + idempotencyKey;
export const isUnsentTrip = (id: string) => id.startsWith(UNSENT_TRIP_PREFIX);

// trips.ts's order (sortTrips), written here too: that file imports this one.

/** What each kind shows at once, and what it puts in the cache when the server answers. */
const kinds: Record<ChangeKind, { show(client: QueryClient, change: QueuedChange): void; answered(client: QueryClient, answer: unknown, change: QueuedChange): void; refresh: readonly (readonly string[])[] }> = {
  trip: {
    show: (client, change) => client.setQueryData<Trip[]>(queryKeys.trips, (trips) => trips?.map((t) => (t.id === change.card ? { ...t, ...change.patch } : t))),
    answered: (client, answer, change) => {
      if (isTripAnswer(answer)) {
        const { warnings: _warnings, ...trip } = answer as Trip & { warnings?: unknown };
        client.setQueryData<Trip[]>(queryKeys.trips, (trips) => trips?.map((t) => (t.id === trip.id ? trip : t)));
      }
      if (change.clearMatches) client.setQueryData(queryKeys.matches(change.card), null);
    },
    refresh: [queryKeys.trips],
  },
  newTrip: {
    show: (client, change) =>
      client.setQueryData<Trip[]>(queryKeys.trips, (trips) => (trips && change.trip && !trips.some((t) => t.id === change.card) ? [...trips, change.trip].sort(byStartThenFlight) : trips)),
    // The server's trip takes the temporary one's place; the list is asked again for the rest (its stats, its value).
    answered: (client, answer, change) => {
      if (isTripAnswer(answer)) {
        const { warnings: _warnings, ...trip } = answer as Trip & { warnings?: unknown };
        client.setQueryData<Trip[]>(queryKeys.trips, (trips) => trips && [...trips.filter((t) => t.id !== change.card && t.id !== trip.id), trip].sort(byStartThenFlight));
      }
      void refreshAll(client, [queryKeys.trips, queryKeys.stats]);
    },
    refresh: [queryKeys.trips],
  },
  proposal: {
    show: (client, change) =>
      client.setQueryData<SwapProposalView[]>(queryKeys.proposals, (list) => list?.map((p) => (`proposal:${p.id}` === change.card && change.proposalStatus ? { ...p, status: change.proposalStatus } : p))),
    // An accept withdraws both offers and makes an agreement: asked again.
    answered: (client) => void refreshAll(client, [queryKeys.swaps, queryKeys.trips]),
    refresh: [queryKeys.swaps, queryKeys.trips],
  },
  preferences: {
    show: (client, change) => client.setQueryData<NotificationPreferences>(queryKeys.notificationPreferences, (now) => (now ? { ...now, ...(change.body as object) } : now)),
    answered: (client, answer) => client.setQueryData(queryKeys.notificationPreferences, answer),
    refresh: [queryKeys.notificationPreferences],
  },
  wish: {
    show: () => undefined,
    answered: (client) => void refreshAll(client, [WISHES]),
    refresh: [WISHES],
  },
};

function isTripAnswer(value: unknown): value is Trip {
  return typeof value === 'object' && value !== null && 'id' in value && 'startDate' in value;
}

type QueryKeys = readonly (readonly string[])[];

function refreshAll(client: QueryClient, keys: QueryKeys): Promise<unknown> {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

/**
 * A read of the trips under way while a change is made, or answered, may carry the trips as they
 * were before it: landing after the change is shown, it would take the change off the card again
 * until something asked once more. Such a read is dropped (the data stays as it was), and the
 * change's answer asks again for what was dropped, once the server holds the change.
 */
function dropReadsUnderWay(client: QueryClient, keys: QueryKeys): QueryKeys {
  const underWay = keys.filter((queryKey) => client.isFetching({ queryKey }) > 0);
  // The data goes back to what it was before the read at once; the promise only says it is over.
  for (const queryKey of underWay) void client.cancelQueries({ queryKey });
  return underWay;
}

/**
 * Registers every kind of change at start, before the kept cache is read back: a change restored
 * from the device finds its mutationFn here. No retries but for "not reached"; a refusal (4xx)
 * means the server moved on: its sentence is shown on the card, and the data asked again.
 */
export function registerQueuedChanges(client: QueryClient): void {
  for (const kind of Object.keys(kinds) as ChangeKind[]) {
    const handling = kinds[kind];
    client.setMutationDefaults(keyOf(kind), {
      mutationFn: (change: QueuedChange) => request<unknown>(change.path, { method: change.method, body: change.body, idempotencyKey: change.idempotencyKey }),
      networkMode: 'online',
      scope: SCOPE,
      retry: (_count, error) => unreachable(error),
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS),
      // A refused new trip's card stays, with the server's sentence, until the pilot dismisses it.
      ...(kind === 'newTrip' ? { gcTime: Infinity } : {}),
      onMutate: (change: QueuedChange) => {
        const dropped = dropReadsUnderWay(client, handling.refresh);
        handling.show(client, change);
        return { dropped };
      },
      onSuccess: (answer: unknown, change: QueuedChange, context: { dropped: QueryKeys } | undefined) => {
        const dropped = dropReadsUnderWay(client, handling.refresh);
        handling.answered(client, answer, change);
        void refreshAll(client, [...(context?.dropped ?? []), ...dropped]);
      },
      onError: (error: unknown, change: QueuedChange) => {
        const { title, what, fixed } = change.failure;
        toast.error(title, fixed ?? (what ? `${what}: ${errorMessage(error)}` : errorMessage(error)));
        void refreshAll(client, handling.refresh);
      },
    });
  }
}

/**
 * A change as a hook: `mutate(input)` queues it with a new Idempotency-Key. A change waiting for
 * the network is not "in progress": the buttons stay usable and the card says it is waiting.
 */
export function useQueuedChange<I>(kind: ChangeKind, toChange: (input: I) => Omit<QueuedChange, 'kind' | 'idempotencyKey'>) {
  const mutation = useMutation<unknown, Error, QueuedChange>({ mutationKey: keyOf(kind) });
  const waiting = mutation.isPaused || !onlineManager.isOnline();
  const { mutate: send } = mutation;
  // The latest toChange is read when called; the function itself stays the same between renders.
  const latest = useRef(toChange);
  latest.current = toChange;
  const [variables, setVariables] = useState<I>();
  const mutate = useCallback(
    (input: I, options?: { onSuccess?: (answer: unknown) => void; onError?: (error: Error) => void }) => {
      setVariables(input);
      send({ ...latest.current(input), kind, idempotencyKey: newKey() }, options);
    },
    [send, kind],
  );
  const isPending = mutation.isPending && !waiting;
  return { isPending, isError: mutation.isError, error: mutation.error, variables: isPending ? variables : undefined, mutate };
}

export function newKey(): string {
  return crypto.randomUUID();
}

/** Queues a change made outside a component (a new trip whose first try got no answer: same key). */
export function queueChange(client: QueryClient, change: QueuedChange): void {
  void new MutationObserver<unknown, Error, QueuedChange>(client, { mutationKey: keyOf(change.kind) }).mutate(change).catch(() => undefined);
}

/**
 * The new trips not yet on the server: waiting, or refused and not yet dismissed. The trips list
 * keeps them when it is asked again (trips.ts), so their cards stay until the server answers.
 */
export function unsentTrips(client: QueryClient): Trip[] {
  return client
    .getMutationCache()
    .findAll({ mutationKey: keyOf('newTrip'), predicate: (mutation) => ['pending', 'error'].includes(mutation.state.status) })
    .flatMap((mutation) => (mutation.state.variables as QueuedChange | undefined)?.trip ?? []);
}

/** A refused new trip's card goes: the refusal and the trip it showed. */
function dismissUnsentTrip(client: QueryClient, card: string): void {
  const cache = client.getMutationCache();
  for (const mutation of cache.findAll({ mutationKey: keyOf('newTrip') })) {
    if ((mutation.state.variables as QueuedChange | undefined)?.card === card) cache.remove(mutation);
  }
  client.setQueryData<Trip[]>(queryKeys.trips, (trips) => trips?.filter((t) => t.id !== card));
}

/**
 * The state of a card's changes: waiting to be sent, or the server's refusal of the last one. A
 * new trip's refusal can be dismissed (its card goes); other cards show the server's data again.
 */
export function useCardChanges(card: string): { waiting: boolean; refusal?: string; dismiss?: () => void } {
  const client = useQueryClient();
  const states = useMutationState({
    filters: { mutationKey: [QUEUED], predicate: (mutation) => (mutation.state.variables as QueuedChange | undefined)?.card === card },
    select: (mutation) => ({ status: mutation.state.status, paused: mutation.state.isPaused || mutation.state.failureCount > 0, error: mutation.state.error, at: mutation.state.submittedAt }),
  });
  const waiting = states.some((state) => state.status === 'pending' && state.paused);
  const refused = states.filter((state) => state.status === 'error').sort((a, b) => b.at - a.at)[0];
  const dismiss = isUnsentTrip(card) ? { dismiss: () => dismissUnsentTrip(client, card) } : {};
  return { waiting, ...(refused ? { refusal: errorMessage(refused.error), ...dismiss } : {}) };
}

/** Stored changes are "waiting" whatever they were doing: after a restart they are resumed. */
export function keptAsWaiting<S extends { isPaused: boolean }>(state: S): S {
  return { ...state, isPaused: true };
}

/** Logging out drops the pilot's waiting changes with the rest of what was kept. */
export function dropQueuedChanges(client: QueryClient): void {
  const cache = client.getMutationCache();
  for (const mutation of cache.findAll({ mutationKey: [QUEUED] })) cache.remove(mutation);
}
