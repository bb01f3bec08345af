import type { Clock } from '@crewswap/kit';

/**
 * A value shared by many callers, built once and kept `keepMs` by key: one build at a time per
 * key (concurrent callers wait for the same one), a failed build is forgotten at once, and
 * `keepMs` 0 builds afresh for every call. Expired keys are dropped as others are read.
 */
export function keptByKey<T>(deps: { clock: Clock; keepMs: number }) {
  const kept = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string, build: () => Promise<T>): Promise<T> => {
    const now = deps.clock.now().getTime();
    for (const [other, entry] of kept) if (now - entry.at >= deps.keepMs) kept.delete(other);
    const hit = kept.get(key);
    if (hit) return hit.value;
    const value = build();
    if (deps.keepMs > 0) {
      const entry = { at: now, value };
      kept.set(key, entry);
      value.catch(() => {
        if (kept.get(key) === entry) kept.delete(key);
      });
    }
    return value;
  };
}
