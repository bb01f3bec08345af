import { QueryClient } from '@tanstack/react-query';
import { createMutationCache } from './mutations';

/** The admin spec's data policy: no retries, no refetch on focus/mount/reconnect, never stale. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
      // Offline, a change fails at once and says so (mutations.ts): nothing waits silently to be sent.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
