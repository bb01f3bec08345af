import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody, MasterRosterCooldown, Pilot, TestPilot, UpdatePilotBody } from '@crewswap/proto';
import { useSetCurrentPilot } from './auth';
import { request, withExpirySuppressed } from './client';
import { queryKeys } from './keys';
import { fixed, titled } from './mutations';

/** A pilot as the test-login list shows them (auth's TestPilot). */
export type ListedPilot = Omit<TestPilot, 'name' | 'testData'> & Partial<Pick<TestPilot, 'name' | 'testData'>>;

export function useAllPilots(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.pilotsAll,
    queryFn: () => request<ListedPilot[]>('/api/pilots/all'),
    enabled,
  });
}

/**
 * Edit My Details. A refusal re-reads the pilot from the server, so the form can be reset to what
 * is really saved (pilot spec section 8).
 */
export function useUpdatePilot() {
  const queryClient = useQueryClient();
  const setCurrentPilot = useSetCurrentPilot();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdatePilotBody }) =>
      request<Pilot>(`/api/pilots/${id}`, { method: 'PATCH', body: changes }),
    onSuccess: async (updated, { changes }) => {
      setCurrentPilot(updated);
      // Rank, fleet and LTC decide which trips the pilot may swap.
      if (changes.ltc !== undefined || changes.fleet || changes.rank) {
        await queryClient.invalidateQueries({ queryKey: queryKeys.trips });
      }
    },
    onError: async () => {
      try {
        setCurrentPilot(await request<Pilot>('/api/pilot/current'));
      } catch {
        // The form goes back to the pilot the app already has.
      }
    },
    meta: titled('Update Failed', 'Failed to update profile.'),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ChangePasswordBody }) =>
      request<unknown>(`/api/pilots/${id}/password`, { method: 'PATCH', body }),
    meta: titled('Password Change Failed'),
  });
}

export function useDeletePilot() {
  return useMutation({
    // Deleting the profile ends the session on purpose: its 401s are not an expiry.
    mutationFn: (id: string) => withExpirySuppressed(() => request<unknown>(`/api/pilots/${id}`, { method: 'DELETE' })),
    meta: titled('Error', 'Failed to delete profile'),
  });
}

/** Asked when the pilot turns Master Roster back on: it stays off for 30 days after turning it off. */
export function useCheckMasterRosterCooldown() {
  return useMutation({
    mutationFn: (id: string) => request<MasterRosterCooldown>(`/api/pilots/${id}/check-master-roster-cooldown`),
    meta: fixed('Error', 'Failed to check Master Roster cooldown. Please try again.'),
  });
}
