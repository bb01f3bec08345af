import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RosterHistoryList, RosterHistoryQuery, RosterStats } from '@crewswap/proto';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';
import { queryString } from './pilots';

/** The spec refreshes the history and its stats every 30 s while the panel is open. */
export const ROSTER_REFRESH_MS = 30_000;

export function useRosterHistory(query: Partial<RosterHistoryQuery>) {
  return useQuery({
    queryKey: adminKeys.rosterHistoryPage(query),
    queryFn: () => adminRequest<RosterHistoryList>(`/api/admin/roster-history${queryString({ ...query })}`),
    refetchInterval: ROSTER_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useRosterStats() {
  return useQuery({
    queryKey: adminKeys.rosterStats,
    queryFn: () => adminRequest<RosterStats>('/api/admin/roster-history/stats'),
    refetchInterval: ROSTER_REFRESH_MS,
  });
}
