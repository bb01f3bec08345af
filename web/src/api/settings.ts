import { useQuery } from '@tanstack/react-query';
import { addDays } from '@crewswap/proto/browser';
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

/** The swap window in days: the pilot's own range, else the setting, else the spec's 4. */
export function swapWindowDays(pilotRange: number | null | undefined, setting: string | undefined): number {
  if (pilotRange !== null && pilotRange !== undefined) return pilotRange;
  const parsed = Number.parseInt(setting ?? '', 10);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : 4;
}

/** The default search window for a trip: its own range, else start +- the window days. */
export function searchRange(trip: Pick<Trip, 'startDate' | 'searchStartDate' | 'searchEndDate'>, windowDays: number) {
  return {
    startDate: trip.searchStartDate ?? addDays(trip.startDate, -windowDays),
    endDate: trip.searchEndDate ?? addDays(trip.startDate, windowDays),
  };
}
