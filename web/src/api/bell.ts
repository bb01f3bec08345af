import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BellList } from '@crewswap/proto';
import { request } from './client';

/** The bell's alerts; the event stream's updates ask for them again (liveUpdates.ts). */
export const BELL_KEY = ['notifications', 'bell'] as const;

export function useBell() {
  return useQuery({ queryKey: BELL_KEY, queryFn: () => request<BellList>('/api/notifications/bell') });
}

/**
 * Marks these alerts read on every device. Only the ones the pilot was shown are named: an alert
 * that came in meanwhile stays unread.
 */
export function useMarkBellRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => request<{ unread: number }>('/api/notifications/bell/read', { method: 'POST', body: { ids } }),
    onSuccess: ({ unread }, ids) =>
      queryClient.setQueryData<BellList>(BELL_KEY, (bell) =>
        bell && { unread, entries: bell.entries.map((entry) => (ids.includes(entry.id) ? { ...entry, read: true } : entry)) },
      ),
  });
}
