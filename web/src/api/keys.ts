/** Every query key of the app, so that invalidation and cache updates name the same thing. */
export const queryKeys = {
  authConfig: ['auth', 'config'] as const,
  currentPilot: ['pilot', 'current'] as const,
  setting: (key: string) => ['settings', key] as const,
  trips: ['trips'] as const,
  matches: (tripId: string) => ['matches', tripId] as const,
  iataCodes: ['iata-codes'] as const,
  pilotsAll: ['pilots', 'all'] as const,
  masterRosterCooldown: (pilotId: string) => ['pilots', pilotId, 'master-roster-cooldown'] as const,
};
