import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeedAddress, CalendarFeedStatus } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';

/** Whether the pilot's calendar feed is on. */
export function useCalendarFeed() {
  return useQuery({
    queryKey: queryKeys.calendarFeed,
    queryFn: () => request<CalendarFeedStatus>('/api/calendar/feed'),
  });
}

/**
 * Turns the feed on, or gives it a new address (the old one stops at once). The address is
 * handed to the caller only, never kept in the query cache, which is persisted on the device.
 */
export function useRotateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await request<CalendarFeedAddress>('/api/calendar/feed', { method: 'POST', body: {} })).url,
    onSuccess: () => queryClient.setQueryData<CalendarFeedStatus>(queryKeys.calendarFeed, { enabled: true }),
  });
}

export function useTurnOffCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('/api/calendar/feed', { method: 'DELETE' }),
    onSuccess: () => queryClient.setQueryData<CalendarFeedStatus>(queryKeys.calendarFeed, { enabled: false }),
  });
}
