import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CleanupConfig, CleanupConfigBody, CleanupRun, CleanupRunResponse, DeletedPilotList, MessageResponse } from '@crewswap/proto';
import { titled } from '../../../api/mutations';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';

export function useCleanupConfig() {
  return useQuery({ queryKey: adminKeys.cleanupConfig, queryFn: () => adminRequest<CleanupConfig>('/api/admin/cleanup/config') });
}

export function useSaveCleanupConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CleanupConfigBody) => adminRequest<CleanupConfig>('/api/admin/cleanup/config', { method: 'POST', body }),
    onSuccess: (config) => queryClient.setQueryData(adminKeys.cleanupConfig, config),
    meta: titled('Update Failed'),
  });
}

export function useCleanupHistory() {
  return useQuery({ queryKey: adminKeys.cleanupHistory, queryFn: () => adminRequest<CleanupRun[]>('/api/admin/cleanup/history') });
}

export function useDeletedPilots() {
  return useQuery({ queryKey: adminKeys.deletedPilots, queryFn: () => adminRequest<DeletedPilotList>('/api/admin/cleanup/deleted-pilots') });
}

export function useRemoveDeletedPilot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminRequest<MessageResponse>(`/api/admin/cleanup/deleted-pilots/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.deletedPilots }),
    meta: titled('Delete Failed'),
  });
}

export function useRunCleanup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (retentionDays: number) => adminRequest<CleanupRunResponse>('/api/admin/cleanup/run', { method: 'POST', body: { retentionDays } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.cleanupHistory });
      void queryClient.invalidateQueries({ queryKey: adminKeys.analytics });
    },
    meta: titled('Cleanup Failed'),
  });
}

/** How many trips a run with this retention would delete; asked for when the admin presses Preview. */
export function useCleanupPreview() {
  return useMutation({
    mutationFn: (days: number) => adminRequest<{ tripsToDelete: number }>(`/api/admin/cleanup/preview?days=${days}`),
    meta: titled('Error', 'Failed to preview cleanup'),
  });
}
