import { QueryClient, dehydrate } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from './keys';
import { createIdbPersister } from './persist';

// IndexedDB as a map: what is kept under which key is what these tests look at.
const stored = new Map<string, unknown>();
vi.mock('idb-keyval', () => ({
  get: async (key: string) => stored.get(key),
  set: async (key: string, value: unknown) => void stored.set(key, value),
  del: async (key: string) => void stored.delete(key),
}));

function clientOf(pilotId: string | null, trips: unknown[] = []) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(queryKeys.currentPilot, pilotId ? { id: pilotId, firstName: 'Erin' } : null);
  queryClient.setQueryData(queryKeys.trips, trips);
  return { timestamp: Date.now(), buster: '1', clientState: dehydrate(queryClient) };
}

describe('the kept cache', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    stored.clear();
    localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it("is kept under the signed-in pilot's id and read back for them", async () => {
    const persister = createIdbPersister();
    await persister.persistClient(clientOf('pilot-a', [{ id: 'trip-1' }]));
    await vi.advanceTimersByTimeAsync(1500);
    expect([...stored.keys()]).toEqual(['crewswap-cache:pilot-a']);
    const restored = await persister.restoreClient();
    expect(JSON.stringify(restored)).toContain('trip-1');
  });

  it("drops another pilot's entry before keeping the new pilot's", async () => {
    const persister = createIdbPersister();
    await persister.persistClient(clientOf('pilot-a', [{ id: 'trip-of-a' }]));
    await vi.advanceTimersByTimeAsync(1500);
    await persister.persistClient(clientOf('pilot-b', [{ id: 'trip-of-b' }]));
    await vi.advanceTimersByTimeAsync(1500);
    expect([...stored.keys()]).toEqual(['crewswap-cache:pilot-b']);
    expect(JSON.stringify(await persister.restoreClient())).not.toContain('trip-of-a');
  });

  it('stays as it was while the pilot cannot be checked (no network): that is not a logout', async () => {
    const persister = createIdbPersister();
    await persister.persistClient(clientOf('pilot-a', [{ id: 'trip-1' }]));
    await vi.advanceTimersByTimeAsync(1500);
    // The current-pilot check failed: its query is not among what would be kept.
    const unchecked = new QueryClient();
    unchecked.setQueryData(queryKeys.trips, []);
    await persister.persistClient({ timestamp: Date.now(), buster: '1', clientState: dehydrate(unchecked) });
    await vi.advanceTimersByTimeAsync(1500);
    expect([...stored.keys()]).toEqual(['crewswap-cache:pilot-a']);
    expect(JSON.stringify(await persister.restoreClient())).toContain('trip-1');
  });

  it('is dropped at once when no pilot is signed in any more (logout, expiry)', async () => {
    const persister = createIdbPersister();
    await persister.persistClient(clientOf('pilot-a', [{ id: 'trip-1' }]));
    await vi.advanceTimersByTimeAsync(1500);
    await persister.persistClient(clientOf(null));
    expect(stored.size).toBe(0);
    expect(await persister.restoreClient()).toBeUndefined();
  });
});
