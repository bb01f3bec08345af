import { useQuery } from '@tanstack/react-query';
import { tripWindow } from '@crewswap/proto/browser';
import type { PublicSettingKey, SettingValueResponse, Trip } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';

/** A public setting's value, or undefined while loading or when the server has none. */
export function useSetting(key: PublicSettingKey) {
  return useQuery({
    queryKey: queryKeys.setting(key),
    queryFn: async () => {
      const answer = await request<SettingValueResponse>(`/api/settings/${key}`);
      return answer.value;
    },
  });
}

/** The swap window in days (the pilot's own range, else the setting), as the servers read it. */
export { swapWindowDays } from '@crewswap/proto/browser';

/** A trip's default search dates: its swap window exactly as swaps works it out (proto's tripWindow). */
export function searchRange(trip: Pick<Trip, 'startDate' | 'searchStartDate' | 'searchEndDate'>, windowDays: number) {
  const { from, to } = tripWindow(trip, windowDays, windowDays);
  return { startDate: from, endDate: to };
}
