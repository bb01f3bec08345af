import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Wish, WishBody } from '@crewswap/proto';
import { errorMessage, request } from './client';
import { onFailure } from './mutations';

const failed = (title: string) => onFailure((error) => ({ title, description: errorMessage(error) }));

/** The wishes with their matching offers; a wish alert on the event stream asks for them again (liveUpdates.ts). */
export const WISHES_KEY = ['notifications', 'wishes'] as const;

export function useWishes() {
  return useQuery({ queryKey: WISHES_KEY, queryFn: () => request<Wish[]>('/api/notifications/wishes') });
}

/** Saves a new wish (no id) or changes one; the list is asked again for the counts. */
export function useSaveWish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: WishBody }) =>
      request<Wish>(id ? `/api/notifications/wishes/${id}` : '/api/notifications/wishes', { method: id ? 'PUT' : 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WISHES_KEY }),
    meta: failed('Wish Not Saved'),
  });
}

export function useDeleteWish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<unknown>(`/api/notifications/wishes/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WISHES_KEY }),
    meta: failed('Wish Not Deleted'),
  });
}
