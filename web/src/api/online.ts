import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/** Said wherever an action is refused for want of a network. */
export const NEEDS_CONNECTION = 'Needs a connection: you are offline.';

/**
 * TanStack Query assumes it starts online; an installed app opened without a network must not
 * try its calls (and take their failure for "signed out"). Then, back online, everything is asked
 * again by itself: the data policy never refetches on reconnect otherwise.
 */
export function followNetwork(queryClient: QueryClient): () => void {
  onlineManager.setOnline(navigator.onLine);
  return onlineManager.subscribe((online) => {
    if (online) void queryClient.invalidateQueries();
  });
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => onlineManager.subscribe(onChange),
    () => onlineManager.isOnline(),
  );
}
