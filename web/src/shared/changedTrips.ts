import { useSyncExternalStore } from 'react';

/**
 * Trips a roster import changed, highlighted on the trips page until the pilot has seen them (the
 * page was left or the app put away with them shown). Kept in localStorage, so a reload keeps them.
 */
const KEY = 'crewswap.changed-trips';
const listeners = new Set<() => void>();
let ids: ReadonlySet<string> = new Set(read());

function read(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function save(next: ReadonlySet<string>): void {
  ids = next;
  try {
    if (next.size > 0) localStorage.setItem(KEY, JSON.stringify([...next]));
    else localStorage.removeItem(KEY);
  } catch {
    // Private mode: the highlight lasts for this page only.
  }
  for (const listener of listeners) listener();
}

export function rememberChangedTrips(tripIds: string[]): void {
  if (tripIds.length > 0) save(new Set([...ids, ...tripIds]));
}

export function forgetChangedTrips(): void {
  if (ids.size > 0) save(new Set());
}

export function useChangedTrips(): ReadonlySet<string> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => ids,
  );
}
