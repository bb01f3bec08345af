import { Button, Empty } from 'antd';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../api/client';

/** What the console needs of a TanStack query to say that it failed. */
export interface LoadedQuery {
  data: unknown;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * In place of a table's rows (or a list's), when its query failed before anything was loaded:
 * why, and a way to try again. Empty, the table read as "there is nothing" (no pilots, nobody
 * signed in) once the toast that said otherwise had gone.
 */
export function FailedLoad({ query }: { query: LoadedQuery }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span role="alert">Failed to load: {errorMessage(query.error)}</span>}>
      <Button onClick={() => void query.refetch()} loading={query.isFetching}>
        Try Again
      </Button>
    </Empty>
  );
}

/** A table's empty text: why its query failed when it did, else `empty` (antd's own when not given). */
export function emptyTextOf(query: LoadedQuery, empty?: ReactNode): ReactNode {
  return failedBeforeData(query) ? <FailedLoad query={query} /> : empty;
}

/** A figure (a count on a card) that could not be loaded is a dash, never a zero. */
export function figureOf<T>(query: LoadedQuery, value: T | undefined, fallback: T): T | string {
  return value ?? (failedBeforeData(query) ? '—' : fallback);
}

const failedBeforeData = (query: LoadedQuery) => query.isError && query.data === undefined;
