import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RefuseSwapRequestBody, SwapRequest, SwapRequestList, SwapRequestsQuery } from '@crewswap/proto';
import { titled } from '../../../api/mutations';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';
import { queryString } from './pilots';

/** The crewing desk's list: pending requests oldest first, then decided ones (newest decisions last). */
export function useSwapRequests(query: SwapRequestsQuery) {
  return useQuery({
    queryKey: adminKeys.swapRequestList(query),
    queryFn: () => adminRequest<SwapRequestList>(`/api/admin/swap-requests${queryString({ ...query })}`),
    placeholderData: keepPreviousData,
  });
}

/** Decided or not (a 409: another admin decided first, a trip changed), the list is asked for again. */
function useRefreshRequests() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: adminKeys.swapRequests });
}

export function useApproveSwapRequest() {
  const refresh = useRefreshRequests();
  return useMutation({
    mutationFn: (id: string) => adminRequest<SwapRequest>(`/api/admin/swap-requests/${id}/approve`, { method: 'POST', body: {} }),
    onSettled: refresh,
    meta: titled('Swap Not Approved'),
  });
}

export function useRefuseSwapRequest() {
  const refresh = useRefreshRequests();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: RefuseSwapRequestBody }) =>
      adminRequest<SwapRequest>(`/api/admin/swap-requests/${id}/refuse`, { method: 'POST', body }),
    onSettled: refresh,
    meta: titled('Swap Not Refused'),
  });
}
