import { useQuery } from '@tanstack/react-query';
import type { ActiveSessions, AdminAnalytics, ComprehensiveAnalytics, ProposalStats, RecentRegistrations, SessionHistory, SwapBreakdown } from '@crewswap/proto';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';

export function useAnalytics(enabled = true) {
  return useQuery({ queryKey: adminKeys.analytics, queryFn: () => adminRequest<AdminAnalytics>('/api/admin/analytics'), enabled });
}

/** Trip Analytics' other views: by base, test data, and what kind of trips are offered. */
export function useComprehensiveAnalytics() {
  return useQuery({ queryKey: adminKeys.analyticsComprehensive, queryFn: () => adminRequest<ComprehensiveAnalytics>('/api/admin/analytics/comprehensive') });
}

export function useSwapBreakdown() {
  return useQuery({ queryKey: adminKeys.swapBreakdown, queryFn: () => adminRequest<SwapBreakdown>('/api/admin/analytics/swap-breakdown') });
}

/** Swap proposals made, agreed, cancelled and approved over the last 30 days, by fleet and rank (swaps). */
export function useProposalStats() {
  return useQuery({ queryKey: adminKeys.proposalStats, queryFn: () => adminRequest<ProposalStats>('/api/admin/swaps/proposal-stats') });
}

export function useActiveSessions(enabled = true) {
  return useQuery({ queryKey: adminKeys.sessionsActive, queryFn: () => adminRequest<ActiveSessions>('/api/admin/sessions/active'), enabled });
}

/** Fetched only while the login history is shown. */
export function useSessionHistory(enabled: boolean) {
  return useQuery({ queryKey: adminKeys.sessionsHistory, queryFn: () => adminRequest<SessionHistory>('/api/admin/sessions/history'), enabled });
}

export function useRecentRegistrations(enabled = true) {
  return useQuery({
    queryKey: adminKeys.registrations,
    queryFn: () => adminRequest<RecentRegistrations>('/api/admin/recent-registrations'),
    enabled,
  });
}
