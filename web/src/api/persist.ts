import type { QueryClient } from '@tanstack/react-query';
import type { PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import type { Pilot } from '@crewswap/proto';
import { del, get, set } from 'idb-keyval';
import { setSessionActive } from './client';
import { queryKeys } from './keys';
import { isQueued, keptAsWaiting } from './offlineQueue';

/**
 * What a pilot saw, kept in IndexedDB so the installed app opens without a network (issue 40).
 * One entry per pilot (`crewswap-cache:<pilot id>`); localStorage names whose entry is the current
 * one. Another pilot's entry is deleted before anything of the new pilot is written, and the
 * entry goes when the session ends (logout, expiry): nothing of a pilot outlives their session.
 */
const KEY_PREFIX = 'crewswap-cache:';
const OWNER_KEY = 'crewswap-cache-owner';
// Saved at most this often: a burst of cache changes (a page of queries answering) is one write.
const SAVE_EVERY_MS = 1000;
// A week: a pilot away on a trip still opens the app on what they last saw.
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
// Changed when the shape of what is cached changes, so an older entry is dropped, not misread.
const BUSTER = '1';

/**
 * The pilot the cache is of: null when signed out (the current-pilot query answered "nobody"),
 * undefined when not known: the query is left out of what is kept while its last check failed (no
 * network, the server away), and that is not a logout.
 */
function pilotIn(client: PersistedClient): Pilot | null | undefined {
  const query = client.clientState.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(queryKeys.currentPilot));
  return query ? ((query.state.data as Pilot | null | undefined) ?? null) : undefined;
}

async function forgetOwner(): Promise<void> {
  const owner = localStorage.getItem(OWNER_KEY);
  localStorage.removeItem(OWNER_KEY);
  if (owner) await del(KEY_PREFIX + owner);
}

async function save(client: PersistedClient): Promise<void> {
  const pilot = pilotIn(client);
  // Not known now: what was kept stays as it is.
  if (pilot === undefined) return;
  // No pilot: signed out or never signed in; whatever was kept for the last one goes.
  if (!pilot) return forgetOwner();
  if (localStorage.getItem(OWNER_KEY) !== pilot.id) {
    await forgetOwner();
    localStorage.setItem(OWNER_KEY, pilot.id);
  }
  // A change being sent when the app closes is sent again at the next start (its key makes that safe).
  const mutations = client.clientState.mutations.map((mutation) => ({ ...mutation, state: keptAsWaiting(mutation.state) }));
  await set(KEY_PREFIX + pilot.id, { ...client, clientState: { ...client.clientState, mutations } });
}

export function createIdbPersister(): Persister {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest: PersistedClient | undefined;
  // One write at a time, in order: a save still running cannot write a pilot back after logout.
  let writes: Promise<void> = Promise.resolve();
  const write = (work: () => Promise<void>) => {
    writes = writes.then(work).catch((error: unknown) => console.warn('Cache not saved', error));
    return writes;
  };
  return {
    persistClient(client) {
      latest = client;
      // Logging out must not wait for the next save: the cache is dropped at once.
      if (pilotIn(client) === null) {
        clearTimeout(timer);
        timer = undefined;
        return write(forgetOwner);
      }
      timer ??= setTimeout(() => {
        timer = undefined;
        const next = latest;
        if (next) void write(() => save(next));
      }, SAVE_EVERY_MS);
    },
    async restoreClient() {
      const owner = localStorage.getItem(OWNER_KEY);
      return owner ? get<PersistedClient>(KEY_PREFIX + owner) : undefined;
    },
    removeClient: () => write(forgetOwner),
  };
}

/** When the kept entry was written: the time the offline banner names. */
export function savedAt(queryClient: QueryClient): number | undefined {
  const times = queryClient
    .getQueryCache()
    .getAll()
    .map((query) => query.state.dataUpdatedAt)
    .filter((time) => time > 0);
  return times.length > 0 ? Math.max(...times) : undefined;
}

/** After the kept entry is back, a restored pilot counts as signed in: a 401 runs the expiry flow. */
export function afterRestore(queryClient: QueryClient): void {
  if (queryClient.getQueryData<Pilot | null>(queryKeys.currentPilot)) setSessionActive(true);
  // The changes kept waiting are sent now if the server can be reached, else when it can.
  void queryClient.resumePausedMutations();
}

/**
 * Data read back from an earlier visit (maybe days old) is asked again when a screen shows it;
 * offline that call waits and runs once back online. What this visit fetched keeps the data
 * policy: never refetched on mount.
 */
export function refetchRestoredOnMount(queryClient: QueryClient): void {
  const visitStartedAt = Date.now();
  const queries = queryClient.getDefaultOptions().queries;
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queries, refetchOnMount: (query) => (query.state.dataUpdatedAt < visitStartedAt ? 'always' : false) },
  });
}

export function persistOptions(persister: Persister): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    maxAge: PERSIST_MAX_AGE_MS,
    buster: BUSTER,
    dehydrateOptions: {
      // The push subscription is a live browser object (IndexedDB cannot store it), asked of the
      // browser again anyway; everything else answered is kept.
      shouldDehydrateQuery: (query) => query.state.status === 'success' && query.queryKey[0] !== queryKeys.pushSubscription[0],
      // The pilot's changes not yet answered (waiting, or on their way) are kept to be sent.
      shouldDehydrateMutation: (mutation) => isQueued(mutation) && mutation.state.status === 'pending',
    },
  };
}
