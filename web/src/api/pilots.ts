import { useQuery } from '@tanstack/react-query';
import type { ChangePasswordBody, MasterRosterCooldown, Pilot, TestPilot, UpdatePilotBody } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';

/** A pilot as the test-login list shows them (auth's TestPilot). */
export type ListedPilot = Omit<TestPilot, 'name' | 'testData'> & Partial<Pick<TestPilot, 'name' | 'testData'>>;

export function useAllPilots(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.pilotsAll,
    queryFn: () => request<ListedPilot[]>('/api/pilots/all'),
    enabled,
  });
}

export const pilotsApi = {
  update: (id: string, body: UpdatePilotBody) => request<Pilot>(`/api/pilots/${id}`, { method: 'PATCH', body }),
  changePassword: (id: string, body: ChangePasswordBody) =>
    request<unknown>(`/api/pilots/${id}/password`, { method: 'PATCH', body }),
  remove: (id: string) => request<unknown>(`/api/pilots/${id}`, { method: 'DELETE' }),
  masterRosterCooldown: (id: string) =>
    request<MasterRosterCooldown>(`/api/pilots/${id}/check-master-roster-cooldown`),
};
