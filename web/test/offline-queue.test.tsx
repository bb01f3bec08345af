import { MutationObserver, onlineManager, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/query-persist-client-core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreateTripBody, Trip } from '@crewswap/proto';
import { queryKeys } from '../src/api/keys';
import type { QueuedChange } from '../src/api/offlineQueue';
import { afterRestore, createIdbPersister, persistOptions } from '../src/api/persist';
import { createQueryClient } from '../src/api/queryClient';
import { useAddTrip, useTrips } from '../src/api/trips';
import { CardChanges } from '../src/features/offline/CardChanges';
import { TripsPage } from '../src/features/trips/TripsPage';
import { makeTrip, PILOT, renderWithApp } from './render';

// IndexedDB as a map, as persist.test.ts has it.
const stored = new Map<string, unknown>();
vi.mock('idb-keyval', () => ({
  get: async (key: string) => stored.get(key),
  set: async (key: string, value: unknown) => void stored.set(key, structuredClone(value)),
  del: async (key: string) => void stored.delete(key),
}));

const TRIP = { id: 'trip-1', flightNoStart: 'VS003', flightNoEnd: 'VS004', startDate: '2026-12-01', swapDescription: null, isSwappable: false } as unknown as Trip;

interface Sent {
  method: string;
  path: string;
  key: string | null;
  body: unknown;
}

/** The server: records what reached it (with its Idempotency-Key) and answers with `answer`. */
function serve(answer: (sent: Sent) => { status: number; body?: unknown }) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const call = { method: init?.method ?? 'GET', path: String(input), key: headers['Idempotency-Key'] ?? null, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
      if (call.method !== 'GET') sent.push(call);
      const { status, body } = answer(call);
      return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return sent;
}

const answersTrip = (sent: Sent) => ({ status: 200, body: { ...TRIP, ...(sent.body as object) } });

function appClient(): QueryClient {
  const client = createQueryClient();
  client.mount();
  client.setQueryData(queryKeys.currentPilot, PILOT);
  client.setQueryData(queryKeys.trips, [TRIP]);
  return client;
}

function describeTrip(client: QueryClient, text: string, key: string) {
  const change: QueuedChange = {
    kind: 'trip',
    method: 'PATCH',
    path: `/api/trips/${TRIP.id}/description`,
    body: { swapDescription: text },
    idempotencyKey: key,
    card: TRIP.id,
    patch: { swapDescription: text },
    failure: { title: 'Error', what: 'Failed to update description' },
  };
  void new MutationObserver<unknown, Error, QueuedChange>(client, { mutationKey: ['queued', 'trip'] }).mutate(change).catch(() => undefined);
}

/** The trips page's read of the trips, so that they can be asked again. */
function TripsShown() {
  useTrips();
  return null;
}

const tripIn = (client: QueryClient) => client.getQueryData<Trip[]>(queryKeys.trips)![0]!;

describe('changes made offline wait and go', () => {
  beforeEach(() => {
    stored.clear();
    localStorage.clear();
    onlineManager.setOnline(false);
  });
  afterEach(() => {
    onlineManager.setOnline(true);
    vi.unstubAllGlobals();
  });

  it('a change made offline shows at once, waits on the card, and is sent once with its key when back online', async () => {
    const sent = serve(answersTrip);
    const client = appClient();
    render(
      <QueryClientProvider client={client}>
        <CardChanges card={TRIP.id} />
      </QueryClientProvider>,
    );
    describeTrip(client, 'Any JFK', 'key-1');
    expect(tripIn(client).swapDescription).toBe('Any JFK');
    expect(await screen.findByText('Waiting to send')).toBeInTheDocument();
    expect(sent).toEqual([]);

    onlineManager.setOnline(true);
    await waitFor(() => expect(screen.queryByText('Waiting to send')).not.toBeInTheDocument());
    expect(sent).toEqual([{ method: 'PATCH', path: '/api/trips/trip-1/description', key: 'key-1', body: { swapDescription: 'Any JFK' } }]);
    expect(tripIn(client).swapDescription).toBe('Any JFK');
  });

  it('changes kept on the device survive closing the app and are sent in order, each with the key it was made with', async () => {
    const sent = serve(answersTrip);
    const before = appClient();
    describeTrip(before, 'First', 'key-a');
    describeTrip(before, 'Second', 'key-b');
    const persister = createIdbPersister();
    await persistQueryClientSave({ queryClient: before, ...persistOptions(persister) });
    await waitFor(() => expect(stored.size).toBe(1), { timeout: 3000 });
    before.unmount();

    // The app opened again, online: what was kept is read back and the changes go.
    onlineManager.setOnline(true);
    const after = createQueryClient();
    after.mount();
    await persistQueryClientRestore({ queryClient: after, ...persistOptions(persister) });
    expect(tripIn(after).swapDescription).toBe('Second');
    afterRestore(after);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map((s) => [s.key, s.body])).toEqual([
      ['key-a', { swapDescription: 'First' }],
      ['key-b', { swapDescription: 'Second' }],
    ]);
  });

  it('a change the server refuses when it goes (the trip was removed) shows its sentence on the card, is dropped, and the trips are asked again', async () => {
    const sent = serve((call) => (call.method === 'GET' ? { status: 200, body: [] } : { status: 404, body: { error: 'Trip not found' } }));
    const client = appClient();
    render(
      <QueryClientProvider client={client}>
        <TripsShown />
        <CardChanges card={TRIP.id} />
      </QueryClientProvider>,
    );
    describeTrip(client, 'Any JFK', 'key-2');
    onlineManager.setOnline(true);
    expect(await screen.findByText('Not saved: Trip not found')).toBeInTheDocument();
    await waitFor(() => expect(client.getQueryData(queryKeys.trips)).toEqual([]));
    expect(sent).toHaveLength(1);
  });

  it('a read of the trips under way when a change is made, answered late with the trips as they were, does not take the change off the card', async () => {
    onlineManager.setOnline(true);
    let onServer = TRIP;
    const lateReads: Array<() => void> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
        const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
        if ((init?.method ?? 'GET') !== 'GET') {
          onServer = { ...onServer, ...(JSON.parse(init!.body as string) as object) };
          return answer(onServer);
        }
        // The list as the server held it when asked, sent only once the test lets it go.
        const asked = [onServer];
        return new Promise<Response>((resolve) => lateReads.push(() => resolve(answer(asked))));
      }),
    );
    const client = appClient();
    render(
      <QueryClientProvider client={client}>
        <TripsShown />
      </QueryClientProvider>,
    );
    void client.invalidateQueries({ queryKey: queryKeys.trips });
    await waitFor(() => expect(lateReads).toHaveLength(1));

    describeTrip(client, 'Any JFK', 'key-4');
    await waitFor(() => expect(client.isMutating()).toBe(0));
    expect(onServer.swapDescription).toBe('Any JFK');
    // The read asked before the change comes back with the trip as it was.
    lateReads.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tripIn(client).swapDescription).toBe('Any JFK');
    // It is asked again once the server holds the change, and that answer has it.
    await waitFor(() => expect(lateReads).toHaveLength(1));
    lateReads.shift()!();
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(tripIn(client).swapDescription).toBe('Any JFK');
  });

  it('a change the gateway could not deliver (503) waits and is tried again with the same key', async () => {
    let tries = 0;
    const sent = serve((call) => (call.method === 'GET' ? { status: 200, body: {} } : ++tries === 1 ? { status: 503, body: { error: 'The trips service is not available right now.' } } : answersTrip(call)));
    onlineManager.setOnline(true);
    const client = appClient();
    describeTrip(client, 'Later', 'key-3');
    await waitFor(() => expect(sent).toHaveLength(2), { timeout: 5000 });
    expect(sent.map((s) => s.key)).toEqual(['key-3', 'key-3']);
  });
});

/** Add Trip's call, as the form makes it once the pilot has filled it in. */
function AddTrip({ body }: { body: CreateTripBody }) {
  const add = useAddTrip();
  return (
    <button type="button" onClick={() => add.mutate(body)}>
      Send the form
    </button>
  );
}

const KNOWN = makeTrip();
const NEW_TRIP: CreateTripBody = { flightNoStart: 'VS101', flightNoEnd: 'VS102', aircraft: 'A350', route: 'JFK', startDate: '2099-04-01', endDate: '2099-04-03', training: false, requested: false, companions: null, isSwappable: false, reportAt: null, releaseAt: null };
const SERVER_ID = '33333333-3333-4333-8333-333333333333';
const newCard = () => screen.findByRole('article', { name: /^Trip VS101\/VS102/ });

describe('a new trip added offline waits and goes', () => {
  let onServer: Trip[];
  beforeEach(() => {
    onServer = [KNOWN];
    onlineManager.setOnline(false);
  });
  afterEach(() => {
    onlineManager.setOnline(true);
    vi.unstubAllGlobals();
  });

  function openTrips(refuse?: { status: number; error: string }) {
    const sent = serve((call) => {
      if (call.method === 'GET') return call.path === '/api/trips' ? { status: 200, body: onServer } : { status: 404, body: { error: 'Not found' } };
      if (refuse) return { status: refuse.status, body: { error: refuse.error } };
      const created = makeTrip({ ...(call.body as Partial<Trip>), id: SERVER_ID });
      onServer = [...onServer, created];
      return { status: 201, body: { ...created, warnings: [] } };
    });
    const app = renderWithApp(
      <>
        <AddTrip body={NEW_TRIP} />
        <TripsPage pilot={PILOT} />
      </>,
      { trips: [KNOWN], pilot: PILOT },
    );
    return { sent, ...app };
  }

  it("shows as its own card, 'Waiting to send', that cannot be changed or offered yet; back online it is added once and the server's trip takes its place", async () => {
    const { sent, queryClient } = openTrips();
    fireEvent.click(screen.getByRole('button', { name: 'Send the form' }));
    const card = await newCard();
    expect(within(card).getByText('Waiting to send')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Edit trip VS101/VS102' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: /Keep \/ Swap/ })).toBeDisabled();
    expect(sent).toEqual([]);

    onlineManager.setOnline(true);
    await waitFor(() => expect(within(card).queryByText('Waiting to send')).not.toBeInTheDocument());
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/api/trips', body: NEW_TRIP });
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(queryClient.getQueryData<Trip[]>(queryKeys.trips)!.map((t) => t.id)).toEqual([KNOWN.id, SERVER_ID]));
    expect(screen.getAllByRole('article', { name: /^Trip VS101\/VS102/ })).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit trip VS101/VS102' })).toBeEnabled());
  });

  it("refused when it goes (it overlaps a trip added meanwhile): 'Not saved: <the server's sentence>' on its card until dismissed", async () => {
    const overlap = 'Trip dates conflict with existing trip: VS201/VS202 (04/01/2099 to 04/02/2099)';
    const { sent, queryClient } = openTrips({ status: 409, error: overlap });
    fireEvent.click(screen.getByRole('button', { name: 'Send the form' }));
    await newCard();

    onlineManager.setOnline(true);
    expect(await screen.findByText(`Not saved: ${overlap}`)).toBeInTheDocument();
    // The list asked again after the refusal still shows the refused trip, with its sentence.
    await waitFor(() => expect(sent).toHaveLength(1));
    await queryClient.invalidateQueries({ queryKey: queryKeys.trips });
    const card = await newCard();
    expect(within(card).getByText(`Not saved: ${overlap}`)).toBeInTheDocument();

    fireEvent.click(within(card).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: /^Trip VS101\/VS102/ })).not.toBeInTheDocument());
    expect(queryClient.getQueryData<Trip[]>(queryKeys.trips)!.map((t) => t.id)).toEqual([KNOWN.id]);
    expect(sent).toHaveLength(1);
  });
});
