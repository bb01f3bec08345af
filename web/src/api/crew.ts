import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CrewMember, WhatsappGroupResponse as WhatsAppGroupResponse } from '@crewswap/proto';
import { WHATSAPP_MESSAGES } from '@crewswap/proto/browser';
import type { CreateWhatsappGroupBody, UpdateWhatsappGroupBody } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';
import { titled } from './mutations';

/** Crew on Trip: the other pilots rostered on the trip's flights and dates (sorted by the server). */
export function useTripPilots(tripId: string) {
  return useQuery({
    queryKey: queryKeys.tripPilots(tripId),
    // Other pilots change these: each opening reads them again (showing the last answer meanwhile).
    refetchOnMount: 'always',
    queryFn: () => request<CrewMember[]>(`/api/trips/${tripId}/pilots`),
  });
}

/** The trip's WhatsApp group as every crew member sees it. */
export function useWhatsAppGroup(tripId: string) {
  return useQuery({
    queryKey: queryKeys.whatsappGroup(tripId),
    // Other pilots change these: each opening reads them again (showing the last answer meanwhile).
    refetchOnMount: 'always',
    queryFn: () => request<WhatsAppGroupResponse>(`/api/trips/${tripId}/whatsapp-group`),
  });
}

/** Every group call answers the group as it now is; the section shows that answer at once. */
function useGroupCall<TVariables>(tripId: string, call: (variables: TVariables) => Promise<WhatsAppGroupResponse | undefined>) {
  const queryClient = useQueryClient();
  const key = queryKeys.whatsappGroup(tripId);
  return {
    mutationFn: call,
    onSuccess: async (answer: WhatsAppGroupResponse | undefined) => {
      if (answer && typeof answer === 'object' && 'group' in answer) queryClient.setQueryData(key, answer);
      await queryClient.invalidateQueries({ queryKey: key });
    },
  };
}

/** Create: the server decides the creator and the group's name from the session and the trip. */
export function useCreateWhatsAppGroup(tripId: string) {
  return useMutation({
    ...useGroupCall(tripId, () =>
      request<WhatsAppGroupResponse>(`/api/trips/${tripId}/whatsapp-group`, { method: 'POST', body: {} satisfies CreateWhatsappGroupBody }),
    ),
    meta: titled(WHATSAPP_MESSAGES.createFailed),
  });
}

/** The creator pastes the invite link: the group becomes active. No toast: the form shows the refusal under the field. */
export function useSetWhatsAppGroupLink(tripId: string) {
  return useMutation(
    useGroupCall(tripId, (inviteLink: string) =>
      request<WhatsAppGroupResponse>(`/api/trips/${tripId}/whatsapp-group`, { method: 'PATCH', body: { inviteLink } satisfies UpdateWhatsappGroupBody }),
    ),
  );
}

/** Cancel creation (pending) or delete (active): only the creator may. */
export function useDeleteWhatsAppGroup(tripId: string) {
  return useMutation({
    ...useGroupCall(tripId, () => request<undefined>(`/api/trips/${tripId}/whatsapp-group`, { method: 'DELETE' })),
    meta: titled(WHATSAPP_MESSAGES.deleteFailed),
  });
}

/** Another crew member takes over a group whose creator left the trip. */
export function useClaimWhatsAppGroup(tripId: string) {
  return useMutation({
    ...useGroupCall(tripId, () => request<WhatsAppGroupResponse>(`/api/trips/${tripId}/whatsapp-group/claim`, { method: 'POST' })),
    meta: titled(WHATSAPP_MESSAGES.claimFailed),
  });
}
