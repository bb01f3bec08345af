import type { Clock } from '@crewswap/kit';
import { LRUCache } from 'lru-cache';

/** Far more keys than calendars (rank × fleet) and pilots reading crossovers at once. */
const MAX_KEYS = 10_000;

/**
 * A value shared by many callers, built once and kept `keepMs` by key: one build at a time per
 * key (concurrent callers wait for the same one), a failed build forgotten at once, `keepMs` 0
 * building afresh for every call. Past half its life a read starts the next build in the
 * background and is answered the kept copy, so a key read steadily is never rebuilt inside a
 * request; only a copy past `keepMs` (nobody asked for half its life) is waited for.
 *
 * lru-cache's `fetch` does the sharing and the serving while renewing (its ttl is half the life);
 * it would serve a stale copy however old, so one past `keepMs` is dropped first.
 */
export function keptByKey<T extends NonNullable<unknown>>(deps: { clock: Clock; keepMs: number }) {
  const cache = new LRUCache<string, T, () => Promise<T>>({
    max: MAX_KEYS,
    ttl: deps.keepMs / 2,
    allowStale: true,
    // A failed renewal keeps the copy; the next read tries again.
    noDeleteOnFetchRejection: true,
    // The service's clock (tests move it), read on every call rather than once a millisecond.
    perf: { now: () => deps.clock.now().getTime() },
    ttlResolution: 0,
    fetchMethod: (_key, _stale, { context }) => context(),
  });

  return async (key: string, build: () => Promise<T>): Promise<T> => {
    if (deps.keepMs === 0) return build();
    // Negative once stale: by how long.
    if (cache.getRemainingTTL(key) <= -deps.keepMs / 2) cache.delete(key);
    return (await cache.fetch(key, { context: build }))!;
  };
}
