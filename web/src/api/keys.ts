/** Every query key of the app, so that invalidation and cache updates name the same thing. */
export const queryKeys = {
  authConfig: ['auth', 'config'] as const,
  currentPilot: ['pilot', 'current'] as const,
  setting: (key: string) => ['settings', key] as const,
  trips: ['trips'] as const,
  /** GET /api/stats: the pilot's and the community's counts, refreshed after a roster upload. */
  stats: ['stats'] as const,
  /** The pilot's private roster upload address (roster+<token>@...). */
  uploadAddress: ['roster', 'upload-address'] as const,
  rosterSubscription: ['roster', 'subscription'] as const,
  /** Whether the pilot's calendar feed is on (never its address: that is only known when made). */
  calendarFeed: ['calendar', 'feed'] as const,
  /** The range Find Swaps last searched on a trip (null: none, or cleared); its offers are under matchPages. */
  matches: (tripId: string) => ['matches', tripId] as const,
  /** Find Swaps' offers for one search, page by page (useInfiniteQuery). */
  // The whole search (dates, order, legalOnly): the query client hashes it by its fields.
  matchPages: (tripId: string, range: { startDate?: string; endDate?: string; sort?: string; legalOnly?: boolean }) => ['match-pages', tripId, range] as const,
  iataCodes: ['iata-codes'] as const,
  pilotsAll: ['pilots', 'all'] as const,
  /** Everything under this prefix is dropped when a link changes. */
  crewLinks: ['crew-links'] as const,
  crewLinkList: (filter: { search: string; category: string; destinations: readonly string[] }) => ['crew-links', 'list', filter] as const,
  crewLink: (id: string) => ['crew-links', 'one', id] as const,
  crewLinkSuggestions: (q: string) => ['crew-links', 'suggestions', q] as const,
  crewLinkSimilar: (title: string) => ['crew-links', 'similar', title] as const,
  crewLinkDestinations: ['crew-links', 'destinations'] as const,
  notificationPreferences: ['notifications', 'preferences'] as const,
  vapidPublicKey: ['notifications', 'vapid-public-key'] as const,
  /** This browser's push subscription (PushManager), not a server read. */
  pushSubscription: ['push', 'subscription'] as const,
  tripPilots: (tripId: string) => ['trip-pilots', tripId] as const,
  whatsappGroup: (tripId: string) => ['whatsapp-group', tripId] as const,
  pilotContact: (pilotId: string) => ['pilot-contact', pilotId] as const,
  masterCalendar: (rank: string, fleet: string) => ['master-calendar', rank, fleet] as const,
  crossoverTrips: ['crossover-trips'] as const,
  /** Swap Calendar's offers per trip, kept apart from Find Swaps' results on the card. */
  calendarMatches: (tripId: string, from: string, to: string) => ['calendar-matches', tripId, from, to] as const,
  /** Swap proposals and agreements (both lists are refreshed together: one change moves both). */
  swaps: ['swaps'] as const,
  proposals: ['swaps', 'proposals'] as const,
  agreements: ['swaps', 'agreements'] as const,
  /** Give-aways I could pick up in a date window (under swaps: a proposal or a decision moves them). */
  giveaways: (from: string, to: string) => ['swaps', 'giveaways', from, to] as const,
};
