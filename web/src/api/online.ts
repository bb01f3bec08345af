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
    // The changes made offline go first (offlineQueue.ts), so what is asked again includes them.
    if (online) void queryClient.resumePausedMutations().then(() => queryClient.invalidateQueries());
  });
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => onlineManager.subscribe(onChange),
    () => onlineManager.isOnline(),
  );
}

/** How often an app that lost the server asks again whether it answers. */
export const PROBE_MS = 10_000;
// Public, tiny and never kept by the service worker (it leaves /api/ alone).
const PROBE_PATH = '/api/auth/config';
let probe: ReturnType<typeof setInterval> | undefined;
let checking = false;

/**
 * A call that got no answer at all (not an error status). The browser may still say it is online
 * (a hotel's wifi that reaches nothing, a link that died under the phone's feet), so the app judges
 * for itself: it asks the server at once, and when that gets no answer either it goes offline on
 * its own word (the banner, the disabled actions, what it kept); one connection dropped on a
 * working network is not "offline". Then it asks every PROBE_MS; the first answer of any kind
 * brings it back, and everything refreshes.
 */
export function noteUnreachable(): void {
  if (checking || probe || !onlineManager.isOnline()) return;
  checking = true;
  void answers().then((reached) => {
    checking = false;
    if (reached) return;
    onlineManager.setOnline(false);
    probe = setInterval(() => void answers().then((back) => back && onlineManager.setOnline(true)), PROBE_MS);
    // Back by any road (the probe, or the browser's own 'online'): the probe is done.
    const stop = onlineManager.subscribe((online) => {
      if (!online) return;
      clearInterval(probe);
      probe = undefined;
      stop();
    });
  });
}

function answers(): Promise<boolean> {
  return fetch(PROBE_PATH, { cache: 'no-store', credentials: 'omit' }).then(
    () => true,
    () => false,
  );
}
