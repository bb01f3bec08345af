import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmergencyShutdownBody, EmergencyShutdownResponse, EmergencyStatus, MessageResponse } from '@crewswap/proto';
import { fixed, titled } from '../../../api/mutations';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';

/** The spec polls the system state every 5 s. */
export const EMERGENCY_POLL_MS = 5_000;

export function useEmergencyStatus(enabled = true) {
  return useQuery({
    queryKey: adminKeys.emergency,
    queryFn: () => adminRequest<EmergencyStatus>('/api/admin/emergency-status'),
    refetchInterval: EMERGENCY_POLL_MS,
    enabled,
  });
}

export function useEmergencyShutdown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EmergencyShutdownBody) =>
      adminRequest<EmergencyShutdownResponse>('/api/admin/emergency-shutdown', { method: 'POST', body }),
    onSuccess: () => {
      queryClient.setQueryData<EmergencyStatus>(adminKeys.emergency, { isShutdown: true });
      void queryClient.invalidateQueries({ queryKey: adminKeys.sessionsActive });
    },
    meta: titled('Shutdown Failed'),
  });
}

export function useResumeOperations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => adminRequest<MessageResponse>('/api/admin/resume-operations', { method: 'POST', body: {} }),
    onSuccess: () => queryClient.setQueryData<EmergencyStatus>(adminKeys.emergency, { isShutdown: false }),
    meta: titled('Resume Failed'),
  });
}

export function useRestartServer() {
  return useMutation({
    mutationFn: () => adminRequest<MessageResponse>('/api/admin/restart-server', { method: 'POST', body: {} }),
    meta: fixed('Restart failed', 'Session timeout changes may not take effect until a manual restart.'),
  });
}
