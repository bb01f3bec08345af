import { useQuery } from '@tanstack/react-query';
import type { Wish, WishBody } from '@crewswap/proto';
import { request } from './client';
import { useQueuedChange } from './offlineQueue';


/** The wishes with their matching offers; a wish alert on the event stream asks for them again (liveUpdates.ts). */
export const WISHES_KEY = ['notifications', 'wishes'] as const;

export function useWishes() {
  return useQuery({ queryKey: WISHES_KEY, queryFn: () => request<Wish[]>('/api/notifications/wishes') });
}

/** Saves a new wish (no id) or changes one; the list is asked again for the counts. Offline it waits (offlineQueue.ts). */
export function useSaveWish() {
  return useQueuedChange('wish', ({ id, body }: { id?: string; body: WishBody }) => ({
    method: id ? 'PUT' : 'POST',
    path: id ? `/api/notifications/wishes/${id}` : '/api/notifications/wishes',
    body,
    card: id ? `wish:${id}` : 'wish:new',
    failure: { title: 'Wish Not Saved' },
  }));
}

export function useDeleteWish() {
  return useQueuedChange('wish', (id: string) => ({
    method: 'DELETE',
    path: `/api/notifications/wishes/${id}`,
    card: `wish:${id}`,
    failure: { title: 'Wish Not Deleted' },
  }));
}
