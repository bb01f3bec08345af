import type { Clock } from '@crewswap/kit';

interface Entry<T> {
  at: number;
  value: Promise<T>;
  /** A newer copy being built while this one is still served. */
  next?: Promise<unknown>;
}

/**
 * A value shared by many callers, built once and kept `keepMs` by key: one build at a time per
 * key (concurrent callers wait for the same one), a failed build forgotten at once, `keepMs` 0
 * building afresh for every call. Past half its life a read starts the next build in the
 * background and is answered the kept copy, so a key read steadily is never rebuilt inside a
 * request; only a copy past `keepMs` (nobody asked for half its life) is waited for.
 */
export function keptByKey<T>(deps: { clock: Clock; keepMs: number }) {
  const kept = new Map<string, Entry<T>>();

  function start(key: string, build: () => Promise<T>, at: number): Entry<T> {
    const entry: Entry<T> = { at, value: build() };
    entry.value.catch(() => {
      if (kept.get(key) === entry) kept.delete(key);
    });
    return entry;
  }

  return (key: string, build: () => Promise<T>): Promise<T> => {
    const now = deps.clock.now().getTime();
    if (deps.keepMs === 0) return build();
    for (const [other, entry] of kept) if (now - entry.at >= deps.keepMs) kept.delete(other);
    const hit = kept.get(key);
    if (!hit) {
      const entry = start(key, build, now);
      kept.set(key, entry);
      return entry.value;
    }
    if (now - hit.at >= deps.keepMs / 2 && !hit.next) {
      const entry = start(key, build, now);
      // Swapped in once built (if still wanted), so readers never wait for it.
      hit.next = entry.value.then(
        () => {
          if (kept.get(key) === hit) kept.set(key, entry);
        },
        () => {
          hit.next = undefined;
        },
      );
    }
    return hit.value;
  };
}
