import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Giveaway, ProposeSwapBody, SwapAgreement, SwapProposal, SwapProposalView } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';
import { titled } from './mutations';
import { useQueuedChange } from './offlineQueue';

/** Every proposal I received or sent (newest first); the screens filter it. */
export function useProposals() {
  return useQuery({ queryKey: queryKeys.proposals, queryFn: () => request<SwapProposalView[]>('/api/swaps/proposals') });
}

export function useAgreements() {
  return useQuery({ queryKey: queryKeys.agreements, queryFn: () => request<SwapAgreement[]>('/api/swaps/agreements') });
}

/** Give-away trips I could fly between two dates, with the owner to contact (the swap rule as Find swaps). */
export function useGiveaways(range: { from: string; to: string }, enabled = true) {
  return useQuery({
    queryKey: queryKeys.giveaways(range.from, range.to),
    queryFn: () => request<Giveaway[]>(`/api/swaps/giveaways?${new URLSearchParams(range).toString()}`),
    enabled,
  });
}

/** After any answer: proposals, agreements and (an accept withdraws both offers) the trips. */
function useRefreshSwaps() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.swaps });
    void queryClient.invalidateQueries({ queryKey: queryKeys.trips });
  };
}

export function useProposeSwap() {
  const refresh = useRefreshSwaps();
  return useMutation({
    mutationFn: (body: ProposeSwapBody) => request<SwapProposal>('/api/swaps/proposals', { method: 'POST', body }),
    onSuccess: refresh,
    meta: titled('Proposal Not Sent'),
  });
}

export type ProposalAnswer = { action: 'accept' | 'cancel'; id: string } | { action: 'decline'; id: string; reason?: string } | { action: 'counter'; id: string; tripId: string; note?: string };

/** Accept, decline, counter or cancel: offline it waits to be sent (offlineQueue.ts). */
export function useAnswerProposal() {
  return useQueuedChange('proposal', (answer: ProposalAnswer) => {
    const { action, id, ...body } = answer;
    return {
      method: 'POST',
      path: `/api/swaps/proposals/${id}/${action}`,
      body,
      card: `proposal:${id}`,
      proposalStatus: PROPOSAL_STATUS[action],
      failure: { title: 'Proposal Not Updated' },
    };
  });
}

const PROPOSAL_STATUS = { accept: 'accepted', decline: 'declined', counter: 'countered', cancel: 'cancelled' } as const;

/** Either pilot cancels an agreed swap before crewing answers. */
export function useCancelSwap() {
  const refresh = useRefreshSwaps();
  return useMutation({
    mutationFn: (id: string) => request<SwapAgreement>(`/api/swaps/agreements/${id}/cancel`, { method: 'POST', body: {} }),
    onSuccess: refresh,
    onError: refresh,
    meta: titled('Swap Not Updated'),
  });
}
