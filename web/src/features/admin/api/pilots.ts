import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPilot, AdminPilotList, AdminPilotPasswordBody, AdminPilotPasswordReply, AdminPilotsQuery, AdminUpdatePilotBody, MessageResponse } from '@crewswap/proto';
import { ApiError, errorMessage } from '../../../api/client';
import { fixed, onFailure } from '../../../api/mutations';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';

function queryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
export { queryString };

export function useAdminPilots(query: AdminPilotsQuery) {
  return useQuery({
    queryKey: adminKeys.pilotList(query),
    queryFn: () => adminRequest<AdminPilotList>(`/api/admin/pilots${queryString({ ...query })}`),
    placeholderData: keepPreviousData,
  });
}

/** The console's catalogue words this one 'Failed to update pilot: HTTP {status}: {text}'. */
export function useUpdatePilot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AdminUpdatePilotBody }) =>
      adminRequest<AdminPilot>(`/api/admin/pilots/${id}`, { method: 'PATCH', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.pilots }),
    meta: onFailure((error) => ({
      title: 'Error',
      description: `Failed to update pilot: ${error instanceof ApiError ? `HTTP ${error.status}: ${error.message}` : errorMessage(error)}`,
    })),
  });
}

export function useDeletePilot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminRequest<MessageResponse>(`/api/admin/pilots/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.pilots });
      void queryClient.invalidateQueries({ queryKey: adminKeys.analytics });
    },
    meta: fixed('Error', 'Failed to delete pilot.'),
  });
}

export function useResetPilotPassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AdminPilotPasswordBody }) =>
      adminRequest<AdminPilotPasswordReply>(`/api/admin/pilots/${id}/password`, { method: 'PATCH', body }),
    meta: fixed('Error', 'Failed to change password.'),
  });
}
