import type { AdminPilotsQuery, RosterHistoryQuery } from '@crewswap/proto';

/** Every query key of the console, all under 'admin' so that logout drops them in one go. */
export const adminKeys = {
  all: ['admin'] as const,
  current: ['admin', 'current'] as const,
  analytics: ['admin', 'analytics'] as const,
  analyticsComprehensive: ['admin', 'analytics', 'comprehensive'] as const,
  swapBreakdown: ['admin', 'analytics', 'swap-breakdown'] as const,
  proposalStats: ['admin', 'swaps', 'proposal-stats'] as const,
  sessionsActive: ['admin', 'sessions', 'active'] as const,
  sessionsHistory: ['admin', 'sessions', 'history'] as const,
  registrations: ['admin', 'recent-registrations'] as const,
  pilots: ['admin', 'pilots'] as const,
  pilotList: (query: AdminPilotsQuery) => ['admin', 'pilots', query] as const,
  rosterHistory: ['admin', 'roster-history'] as const,
  rosterHistoryPage: (query: Partial<RosterHistoryQuery>) => ['admin', 'roster-history', 'list', query] as const,
  rosterStats: ['admin', 'roster-history', 'stats'] as const,
  iataCodes: ['admin', 'iata-codes'] as const,
  excludedAirports: ['admin', 'excluded-airports'] as const,
  admins: ['admin', 'admins'] as const,
  activityLog: ['admin', 'activity-log'] as const,
  settings: ['admin', 'settings'] as const,
  emergency: ['admin', 'emergency-status'] as const,
  cleanupConfig: ['admin', 'cleanup', 'config'] as const,
  cleanupHistory: ['admin', 'cleanup', 'history'] as const,
  cleanupPreview: (days: number) => ['admin', 'cleanup', 'preview', days] as const,
  deletedPilots: ['admin', 'cleanup', 'deleted-pilots'] as const,
};
