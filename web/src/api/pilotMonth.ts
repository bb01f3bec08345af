import { useQuery } from '@tanstack/react-query';
import type { PilotMonthQuery, PilotMonthResponse } from '@crewswap/proto';
import { request } from './client';

/** My month's totals, and with `with`/`without` the same after that swap (issue 55). */
export function usePilotMonth(query: PilotMonthQuery) {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  return useQuery({ queryKey: ['pilot-month', search], queryFn: () => request<PilotMonthResponse>(`/api/pilot/month?${search}`) });
}
