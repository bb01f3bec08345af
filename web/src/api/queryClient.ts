import { QueryClient } from '@tanstack/react-query';
import { createMutationCache } from './mutations';
import { registerQueuedChanges } from './offlineQueue';

/** The admin spec's data policy: no retries, no refetch on focus/mount/reconnect, never stale. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    mutationCache: createMutationCache(),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
        refetchOnReconnect: false,
        refetchInterval: false,
        staleTime: Infinity,
        gcTime: Infinity,
      },
      // Offline, a change fails at once and says so (mutations.ts), except the pilot's changes to
      // their own trips and preferences, which wait and are sent later (offlineQueue.ts).
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  registerQueuedChanges(client);
  return client;
}
