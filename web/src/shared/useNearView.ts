import { useEffect, useRef, type RefObject } from 'react';

/**
 * Calls `onNear` whenever `target` is within `margin` of view while `active` (a list's end, for
 * drawing or fetching more as the pilot scrolls). Observed afresh when `key` changes: a new
 * observer reports at once, so an end still near view after the list grew brings the next call.
 * Does nothing without IntersectionObserver (an old browser, the unit tests).
 */
export function useNearView(target: RefObject<Element | null>, active: boolean, onNear: () => void, margin: string, key: unknown): void {
  const latest = useRef(onNear);
  latest.current = onNear;
  useEffect(() => {
    const element = target.current;
    if (!active || !element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && latest.current(), { rootMargin: margin });
    observer.observe(element);
    return () => observer.disconnect();
  }, [target, active, margin, key]);
}
