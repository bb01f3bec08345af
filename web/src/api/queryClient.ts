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
      mutations: { retry: false },
    },
  });
}
