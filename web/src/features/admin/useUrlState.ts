import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A table's filters and page, kept in the address so that a reload, the back button or a shared
 * link show the same rows. Values equal to their default are left out of the address; changing a
 * filter goes back to page 1.
 */
export function useUrlState<T extends Record<string, string>>(defaults: T) {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => {
    const read = { ...defaults };
    for (const key of Object.keys(defaults) as (keyof T & string)[]) {
      const value = params.get(key);
      if (value !== null) read[key] = value as T[typeof key];
    }
    return read;
    // defaults is a literal at each call site: its contents, not its identity, matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params, JSON.stringify(defaults)]);

  const update = useCallback(
    (changes: Partial<T>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const resetsPage = Object.keys(changes).some((key) => key !== 'page');
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === defaults[key]) next.delete(key);
            else next.set(key, value);
          }
          if (resetsPage && !('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setParams, JSON.stringify(defaults)],
  );

  const reset = useCallback(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of Object.keys(defaults)) next.delete(key);
        return next;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [setParams, JSON.stringify(defaults)]);

  return [values, update, reset] as const;
}

/** The page number as antd's pagination wants it. */
export function pageOf(value: string): number {
  const page = Number.parseInt(value, 10);
  return Number.isFinite(page) && page > 0 ? page : 1;
}
