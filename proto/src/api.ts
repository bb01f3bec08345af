import { z } from 'zod';
import { AdminPilotList, AdminPilotPasswordBody, AdminPilotPasswordReply, AdminPilotsQuery, AdminUpdatePilotBody, ActiveSessions, DeletedPilotList, RecentRegistrations, SessionHistory } from './admin-pilots';
import { Admin, AdminActivityEntry, AdminActivityQuery, AdminBody, AdminIdParams, AdminLoginBody, CurrentAdmin, EmergencyShutdownBody, EmergencyShutdownResponse, EmergencyStatus, SetAdminPasswordBody } from './admin';
import { AdminAnalytics, ComprehensiveAnalytics, SwapBreakdown } from './analytics';
import { AuthPublicConfig, DeletedPilotLookup, EmailBody, EmployeeIdParams, ForcePasswordChangeBody, LoginBody, LoginResponse, RegisterBody, RegisterResponse, RestorePilotBody, TestLoginBody, TestPilotList, VerifyEmailBody } from './auth';
import { CleanupConfig, CleanupConfigBody, CleanupPreviewQuery, CleanupRun, CleanupRunBody, CleanupRunResponse } from './cleanup';
import { IdParams, MessageResponse } from './common';
import { AirportCheck, AirportCheckQuery, CrewLink, CrewLinkBody, CrewLinkDestinations, CrewLinkLike, CrewLinkListQuery, CrewLinkSuggestion, CrewLinkSuggestionsQuery, SimilarCrewLink, SimilarCrewLinksQuery } from './crew-links';
import {
  CreateWhatsappGroupBody,
  CrossoverTripsResponse,
  MasterCalendarParams,
  MasterCalendarResponse,
  PilotStats,
  TripListWithCrewResponse,
  TripPilotsResponse,
  UpdateWhatsappGroupBody,
  UsualRequestsQuery,
  UsualRequestsResponse,
  WhatsappGroupResponse,
} from './crew';
import { CalendarFeedAddress, CalendarFeedBody, CalendarFeedParams, CalendarFeedStatus } from './calendar-feed';
import { PilotMonthQuery, PilotMonthResponse } from './flight-times';
import { PurgePreviewReply } from './events';
import { BellList, DigestUnsubscribeQuery, MarkBellReadBody, MarkBellReadResponse, Wish, WishBody, WishList } from './alerts';
import {
  ClearAllSubscriptionsResponse,
  NotificationPreferences,
  PushSubscriptionBody,
  SubscribeResponse,
  TestPushResponse,
  UnsubscribeResponse,
  UpdateNotificationPreferencesBody,
  VapidPublicKeyResponse,
} from './notifications';
import { ChangePasswordBody, MasterRosterCooldown, Pilot, PilotContact, UpdatePilotBody } from './pilot';
import {
  AcceptProposalResponse,
  CounterProposalBody,
  CounterProposalResponse,
  DeclineProposalBody,
  ProposalListQuery,
  ProposalStats,
  ProposeSwapBody,
  GiveawayList,
  GiveawaysQuery,
  RefuseSwapRequestBody,
  SwapAgreement,
  SwapProposal,
  SwapProposalView,
  SwapRequest,
  SwapRequestList,
  SwapRequestsQuery,
} from './proposals';
import { SSE_EVENTS_PATH, VAPID_PUBLIC_KEY_PATH } from './pwa';
import { SseMessage } from './realtime';
import { RosterHistoryList, RosterHistoryQuery, RosterStats, RosterSubscription, RosterSubscriptionBody, RosterSubscriptionFetched, RosterUploadAddress, RosterUploadResult } from './roster';
import { AccessCodeQuery, AccessCodeResponse, PutSettingBody, Setting, SettingKeyParams, SettingsList, SettingValueResponse } from './settings';
import {
  CreateExcludedAirportBody,
  CreateIataCodeBody,
  CreateTripBody,
  DescriptionBody,
  ExcludedAirport,
  IataCode,
  IataCodeList,
  MatchesQuery,
  RequestedBody,
  SendNotificationsResponse,
  SwapMatch,
  SwapMatchPage,
  SwappableBody,
  Trip,
  TripListQuery,
  TripWithWarnings,
  UpdateIataCodeBody,
  UpdateTripBody,
} from './trip';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Who may call a route: anyone, a signed-in pilot, a signed-in administrator (with the permission the route needs). */
export type ApiAuth = 'none' | 'pilot' | 'admin';

/**
 * One route of the public API. Path parameters are written `{name}` (OpenAPI), where fastify
 * writes `:name`. The schemas are the ones the owning service checks the request with and
 * answers (the kit reads them from here); a route without `response` answers JSON the catalogue
 * does not describe yet.
 */
export interface ApiRoute {
  method: HttpMethod;
  path: string;
  summary: string;
  auth: ApiAuth;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A multipart form carrying one file in this field, instead of a JSON body. */
  upload?: string;
  response?: z.ZodType;
  /** Success statuses (default [200]); 204 has no body. */
  status?: readonly number[];
  /** Answers a text/event-stream whose events' data are `response`. */
  stream?: boolean;
  /** The answer's media type when it is not JSON (`response` then describes its text). */
  contentType?: string;
}

/** What a route declares besides its method, path, summary and caller. */
type RouteDetails = Omit<ApiRoute, 'method' | 'path' | 'summary' | 'auth'>;

/** One catalogue entry, keeping its schemas' own types: a service's handler takes its input types from them. */
const route = <const D extends RouteDetails = {}>(method: HttpMethod, path: string, summary: string, auth: ApiAuth, details?: D): { method: HttpMethod; path: string; summary: string; auth: ApiAuth } & D => ({
  method,
  path,
  summary,
  auth,
  ...(details as D),
});

/**
 * The public API, every route the gateway passes to a service, each declared once: the service
 * registers a route by its entry (the kit's `routes(app)(API.login, ...)` takes the method, path
 * and the schemas it checks and answers with from here), and the OpenAPI document
 * (`docs/openapi.json`, served at /api/docs) and the gateway's contract test are built from the
 * same entries, so what is enforced and what is documented cannot drift. A test checks that the
 * services register exactly these routes.
 */
export const API = {
  // Registration, sign-in and passwords (auth)
  authConfig: route('GET', '/api/auth/config', 'What the login page needs before anyone signs in', 'none', { response: AuthPublicConfig }),
  register: route('POST', '/api/auth/register', 'Register a pilot', 'none', { body: RegisterBody, response: RegisterResponse, status: [201] }),
  verifyEmail: route('POST', '/api/auth/verify-email', 'Confirm the e-mail address with the mailed code', 'none', { body: VerifyEmailBody, response: MessageResponse }),
  resendVerification: route('POST', '/api/auth/resend-verification', 'Send a new verification code', 'none', { body: EmailBody, response: MessageResponse }),
  login: route('POST', '/api/auth/login', 'Sign in a pilot (sets the session cookie)', 'none', { body: LoginBody, response: LoginResponse }),
  testLogin: route('POST', '/api/auth/test-login', 'Sign in as any test pilot (testing mode only)', 'none', { body: TestLoginBody, response: LoginResponse }),
  logout: route('POST', '/api/auth/logout', 'Sign out (always succeeds)', 'none', { response: MessageResponse }),
  forcePasswordChange: route('POST', '/api/auth/force-password-change', 'Replace a temporary password', 'pilot', { body: ForcePasswordChangeBody, response: LoginResponse }),
  forgotPassword: route('POST', '/api/auth/forgot-password', 'Mail a temporary password', 'none', { body: EmailBody, response: MessageResponse }),

  // The pilot's own profile (auth)
  currentPilot: route('GET', '/api/pilot/current', "The signed-in pilot's profile", 'pilot', { response: Pilot }),
  testPilots: route('GET', '/api/pilots/all', 'Test pilots for the testing login (testing mode only)', 'none', { response: TestPilotList }),
  updateMyProfile: route('PATCH', '/api/pilots/{id}', 'Edit my profile', 'pilot', { params: IdParams, body: UpdatePilotBody, response: Pilot }),
  masterRosterCooldown: route('GET', '/api/pilots/{id}/check-master-roster-cooldown', 'Whether Master Roster may be switched on again', 'pilot', { params: IdParams, response: MasterRosterCooldown }),
  changeMyPassword: route('PATCH', '/api/pilots/{id}/password', 'Change my password', 'pilot', { params: IdParams, body: ChangePasswordBody, response: MessageResponse }),
  deleteMyProfile: route('DELETE', '/api/pilots/{id}', 'Delete my profile (restorable for 30 days)', 'pilot', { params: IdParams, response: MessageResponse }),
  checkDeletedPilot: route('GET', '/api/check-deleted-pilot/{employeeId}', 'Whether an employee id belongs to a deleted, restorable profile', 'none', { params: EmployeeIdParams, response: DeletedPilotLookup }),
  restorePilot: route('POST', '/api/restore-pilot', 'Restore a deleted profile', 'none', { body: RestorePilotBody, response: RegisterResponse }),

  // Trips (trips)
  // The wider answer first: the serializer writes the first branch a value fits, and a trip with
  // its crew also fits a plain Trip (whose crew it would drop).
  listTrips: route('GET', '/api/trips', 'My trips; with includeCrew=true, each with its crew', 'pilot', { query: TripListQuery, response: z.union([TripListWithCrewResponse, z.array(Trip)]) }),
  createTrip: route('POST', '/api/trips', 'Add a trip', 'pilot', { body: CreateTripBody, response: TripWithWarnings, status: [201] }),
  updateTrip: route('PATCH', '/api/trips/{id}', 'Edit a trip', 'pilot', { params: IdParams, body: UpdateTripBody, response: TripWithWarnings }),
  deleteTrip: route('DELETE', '/api/trips/{id}', 'Delete a trip', 'pilot', { params: IdParams, status: [204] }),
  setTripSwappable: route('PATCH', '/api/trips/{id}/swappable', 'Offer a trip for swap, or withdraw it', 'pilot', { params: IdParams, body: SwappableBody, response: Trip }),
  setTripDescription: route('PATCH', '/api/trips/{id}/description', "Change an offer's description", 'pilot', { params: IdParams, body: DescriptionBody, response: Trip }),
  setTripRequested: route('PATCH', '/api/trips/{id}/requested', 'Mark a trip as one to keep', 'pilot', { params: IdParams, body: RequestedBody, response: Trip }),
  tripPilots: route('GET', '/api/trips/{id}/pilots', 'The crew on a trip', 'pilot', { params: IdParams, response: TripPilotsResponse }),
  whatsappGroup: route('GET', '/api/trips/{id}/whatsapp-group', "The trip crew's WhatsApp group", 'pilot', { params: IdParams, response: WhatsappGroupResponse }),
  createWhatsappGroup: route('POST', '/api/trips/{id}/whatsapp-group', "Start the crew's WhatsApp group (200: a crew member already did)", 'pilot', {
    params: IdParams,
    body: CreateWhatsappGroupBody,
    response: WhatsappGroupResponse,
    status: [201, 200],
  }),
  setWhatsappGroupLink: route('PATCH', '/api/trips/{id}/whatsapp-group', "Set the group's invite link", 'pilot', { params: IdParams, body: UpdateWhatsappGroupBody, response: WhatsappGroupResponse }),
  removeWhatsappGroup: route('DELETE', '/api/trips/{id}/whatsapp-group', 'Remove the group', 'pilot', { params: IdParams, status: [204] }),
  claimWhatsappGroup: route('POST', '/api/trips/{id}/whatsapp-group/claim', 'Take over a group whose creator left the trip', 'pilot', { params: IdParams, response: WhatsappGroupResponse }),
  masterCalendar: route('GET', '/api/master-calendar/{rank}/{fleet}', 'Master Roster: every visible trip of a rank and fleet', 'pilot', { params: MasterCalendarParams, response: MasterCalendarResponse }),
  masterCalendarPilot: route('GET', '/api/master-calendar/pilots/{id}', "A calendar pilot's contact (name, rank, fleet, email, phone)", 'pilot', { params: IdParams, response: PilotContact }),
  crossoverTrips: route('GET', '/api/crossover-trips', 'Crossover calendar: trips shared with other pilots', 'pilot', { response: CrossoverTripsResponse }),
  usualRequests: route('GET', '/api/usual-requests/search', 'Usual requests: who flies a flight on a date', 'pilot', { query: UsualRequestsQuery, response: UsualRequestsResponse }),
  pilotStats: route('GET', '/api/stats', "My figures and the community's", 'pilot', { response: PilotStats }),
  pilotMonth: route('GET', '/api/pilot/month', "My month's block, duty, days away and days off, and with `with` (an offered trip) and `without` (my trip) the same after that swap", 'pilot', { query: PilotMonthQuery, response: PilotMonthResponse }),
  iataCodes: route('GET', '/api/iata-codes', 'Every known airport code', 'none', { response: IataCodeList }),
  confirmIataCode: route('POST', '/api/iata-codes', 'Confirm an unknown code as a real airport', 'pilot', { body: CreateIataCodeBody, response: IataCode, status: [201] }),
  calendarFeedStatus: route('GET', '/api/calendar/feed', 'Whether my calendar feed is on', 'pilot', { response: CalendarFeedStatus }),
  renewCalendarFeed: route('POST', '/api/calendar/feed', "Turn my calendar feed on, or give it a new address (the old one stops at once)", 'pilot', { response: CalendarFeedAddress }),
  stopCalendarFeed: route('DELETE', '/api/calendar/feed', 'Turn my calendar feed off', 'pilot', { status: [204] }),
  calendarFeed: route('GET', '/api/calendar/{token}.ics', "A pilot's upcoming trips as a calendar (iCalendar, for calendar apps; the private address is the key; ETag and 304)", 'none', {
    params: CalendarFeedParams,
    response: CalendarFeedBody,
    contentType: 'text/calendar',
  }),

  // Swaps (swaps)
  tripMatches: route('GET', '/api/trips/{id}/matches', 'Offers that fit a trip, within a date window: the whole list, or with `limit` a page in relevance order (Mutual, Urgent, date) with the cursor of the next', 'pilot', {
    params: IdParams,
    query: MatchesQuery,
    // The whole list (no limit) is the spec's answer; a page is its own object.
    response: z.union([z.array(SwapMatch), SwapMatchPage]),
  }),
  sendMatchNotifications: route('POST', '/api/trips/{id}/send-notifications', 'Alert the pilots whose offers fit a trip', 'pilot', { params: IdParams, response: SendNotificationsResponse }),
  availableSwaps: route('GET', '/api/available-swaps', 'Disabled by the spec: always answers 404 with a reason', 'none'),
  proposeSwap: route('POST', '/api/swaps/proposals', "Propose one of my trips for another pilot's offered trip", 'pilot', { body: ProposeSwapBody, response: SwapProposal, status: [201] }),
  listProposals: route('GET', '/api/swaps/proposals', 'Proposals I received or sent, newest first', 'pilot', { query: ProposalListQuery, response: z.array(SwapProposalView) }),
  acceptProposal: route('POST', '/api/swaps/proposals/{id}/accept', 'Accept a proposal for my offered trip: the swap is agreed', 'pilot', { params: IdParams, response: AcceptProposalResponse }),
  declineProposal: route('POST', '/api/swaps/proposals/{id}/decline', 'Decline a proposal, with an optional reason', 'pilot', { params: IdParams, body: DeclineProposalBody, response: SwapProposal }),
  counterProposal: route('POST', '/api/swaps/proposals/{id}/counter', 'Answer a proposal with another of my trips', 'pilot', { params: IdParams, body: CounterProposalBody, response: CounterProposalResponse, status: [201] }),
  cancelProposal: route('POST', '/api/swaps/proposals/{id}/cancel', 'Withdraw my open proposal', 'pilot', { params: IdParams, response: SwapProposal }),
  listAgreements: route('GET', '/api/swaps/agreements', 'My agreed swaps and their history, newest first', 'pilot', { response: z.array(SwapAgreement) }),
  cancelAgreement: route('POST', '/api/swaps/agreements/{id}/cancel', 'Cancel an agreed swap before crewing answers', 'pilot', { params: IdParams, response: SwapAgreement }),
  // Gone (issue 53): whatever the body, 410 with a sentence saying crewing decides at the crewing desk.
  recordCrewing: route('POST', '/api/swaps/agreements/{id}/crewing', "Gone: crewing approves or refuses at the crewing desk (always 410 with a sentence)", 'pilot', { params: IdParams }),
  listGiveaways: route('GET', '/api/swaps/giveaways', 'Give-away trips I could fly in a date window (the swap rule as Find swaps), with the owner to contact', 'pilot', { query: GiveawaysQuery, response: GiveawayList }),
  // The crewing desk (swaps; admin permission manage_swaps)
  listSwapRequests: route('GET', '/api/admin/swap-requests', 'Agreements waiting for crewing (oldest first), then decided ones (newest decisions last)', 'admin', { query: SwapRequestsQuery, response: SwapRequestList }),
  approveSwapRequest: route('POST', '/api/admin/swap-requests/{id}/approve', 'Approve: the trips change hands at once', 'admin', { params: IdParams, response: SwapRequest }),
  refuseSwapRequest: route('POST', '/api/admin/swap-requests/{id}/refuse', 'Refuse with a reason: nothing moves', 'admin', { params: IdParams, body: RefuseSwapRequestBody, response: SwapRequest }),

  // Roster import (roster-ingest)
  uploadRoster: route('POST', '/api/roster/upload', 'Import a roster calendar file (.ics, .ics_, .cal)', 'pilot', { upload: 'roster', response: RosterUploadResult }),
  rosterUploadAddress: route('GET', '/api/roster/upload-address', "The pilot's private roster upload address", 'pilot', { response: RosterUploadAddress }),
  replaceRosterUploadAddress: route('POST', '/api/roster/upload-address', "Replace the pilot's private roster upload address (the old one stops at once)", 'pilot', { response: RosterUploadAddress }),
  rosterSubscription: route('GET', '/api/roster/subscription', "The pilot's roster address (calendar subscription) and its last fetch", 'pilot', { response: RosterSubscription }),
  saveRosterSubscription: route('PUT', '/api/roster/subscription', "Set the pilot's roster address: fetched and imported at once, then again on its own", 'pilot', { body: RosterSubscriptionBody, response: RosterSubscriptionFetched }),
  deleteRosterSubscription: route('DELETE', '/api/roster/subscription', "Remove the pilot's roster address (fetching stops at once)", 'pilot', { status: [204] }),
  refreshRosterSubscription: route('POST', '/api/roster/subscription/refresh', "Fetch the pilot's roster address now (at most once a minute)", 'pilot', { response: RosterSubscriptionFetched }),

  // Push notifications (notifications)
  notificationPreferences: route('GET', '/api/notifications/preferences', 'My notification preferences', 'pilot', { response: NotificationPreferences }),
  updateNotificationPreferences: route('PUT', '/api/notifications/preferences', 'Change my notification preferences', 'pilot', { body: UpdateNotificationPreferencesBody, response: NotificationPreferences }),
  subscribePush: route('POST', '/api/notifications/subscribe', "Register this browser's push subscription", 'pilot', { body: PushSubscriptionBody, response: SubscribeResponse, status: [201] }),
  unsubscribePush: route('DELETE', '/api/notifications/unsubscribe', "Remove my browsers' push subscriptions", 'pilot', { response: UnsubscribeResponse }),
  testPush: route('POST', '/api/notifications/test', 'Send me a test push', 'pilot', { response: TestPushResponse, status: [202] }),
  vapidPublicKey: route('GET', VAPID_PUBLIC_KEY_PATH, "The server's public key for a browser's push subscription (base64url)", 'none', { response: VapidPublicKeyResponse }),
  clearAllPushSubscriptions: route('DELETE', '/api/notifications/clear-all', 'Remove every push subscription', 'admin', { response: ClearAllSubscriptionsResponse }),
  // Wishes (swaps: they are matched where offers are)
  listWishes: route('GET', '/api/notifications/wishes', 'My wishes, each with how many current offers match it', 'pilot', { response: WishList }),
  createWish: route('POST', '/api/notifications/wishes', 'Save a wish (at most 10)', 'pilot', { body: WishBody, response: Wish, status: [201] }),
  updateWish: route('PUT', '/api/notifications/wishes/{id}', 'Change a wish', 'pilot', { params: IdParams, body: WishBody, response: Wish }),
  deleteWish: route('DELETE', '/api/notifications/wishes/{id}', 'Delete a wish', 'pilot', { params: IdParams, status: [204] }),
  // The bell and the digest (notifications)
  bell: route('GET', '/api/notifications/bell', 'My alerts, newest first, with their reason and whether read', 'pilot', { response: BellList }),
  markBellRead: route('POST', '/api/notifications/bell/read', 'Mark alerts read on every device', 'pilot', { body: MarkBellReadBody, response: MarkBellReadResponse }),
  digestUnsubscribePage: route('GET', '/api/notifications/digest/unsubscribe', "The digest mail's one-click unsubscribe page (signed link, no login)", 'none', { query: DigestUnsubscribeQuery }),
  digestUnsubscribe: route('POST', '/api/notifications/digest/unsubscribe', 'One-click unsubscribe from the digest (RFC 8058, signed link, no login)', 'none', { query: DigestUnsubscribeQuery, response: MessageResponse }),

  // Live updates (realtime)
  events: route('GET', SSE_EVENTS_PATH, "The pilot's event stream (server-sent events)", 'pilot', { response: SseMessage, stream: true }),

  // Crew links (links)
  listCrewLinks: route('GET', '/api/crew-links', 'Crew links, filtered', 'pilot', { query: CrewLinkListQuery, response: z.array(CrewLink) }),
  createCrewLink: route('POST', '/api/crew-links', 'Add a crew link', 'pilot', { body: CrewLinkBody, response: CrewLink, status: [201] }),
  similarCrewLinks: route('GET', '/api/crew-links/similar', 'Links like the one being written', 'pilot', { query: SimilarCrewLinksQuery, response: z.array(SimilarCrewLink) }),
  crewLinkSuggestions: route('GET', '/api/crew-links/suggestions', 'Search suggestions', 'pilot', { query: CrewLinkSuggestionsQuery, response: z.array(CrewLinkSuggestion) }),
  crewLinkDestinations: route('GET', '/api/crew-links/destinations', 'Destinations that have links', 'pilot', { response: CrewLinkDestinations }),
  crewLinkAirportCheck: route('GET', '/api/crew-links/airport-check', 'Whether an airport code is known', 'pilot', { query: AirportCheckQuery, response: AirportCheck }),
  crewLink: route('GET', '/api/crew-links/{id}', 'One crew link', 'pilot', { params: IdParams, response: CrewLink }),
  updateCrewLink: route('PUT', '/api/crew-links/{id}', 'Edit a crew link', 'pilot', { params: IdParams, body: CrewLinkBody, response: CrewLink }),
  deleteCrewLink: route('DELETE', '/api/crew-links/{id}', 'Delete a crew link', 'pilot', { params: IdParams, status: [204] }),
  likeCrewLink: route('POST', '/api/crew-links/{id}/like', 'Like a crew link', 'pilot', { params: IdParams, response: CrewLinkLike }),
  unlikeCrewLink: route('DELETE', '/api/crew-links/{id}/like', 'Unlike a crew link', 'pilot', { params: IdParams, response: CrewLinkLike }),

  // Settings (admin)
  publicSetting: route('GET', '/api/settings/{key}', 'A public setting (interbids_url, upload_email, swap_search_days, testing_button_enabled, ...)', 'none', { params: SettingKeyParams, response: SettingValueResponse }),

  // The admin console: session and administrators (admin)
  adminLogin: route('POST', '/api/admin/login', 'Sign in an administrator', 'none', { body: AdminLoginBody, response: CurrentAdmin }),
  adminLogout: route('POST', '/api/admin/logout', 'Sign out an administrator (always succeeds)', 'none', { response: MessageResponse }),
  currentAdmin: route('GET', '/api/admin/current', 'The signed-in administrator', 'admin', { response: CurrentAdmin }),
  listAdmins: route('GET', '/api/admin/admins', 'Administrators', 'admin', { response: z.array(Admin) }),
  createAdmin: route('POST', '/api/admin/admins', 'Add an administrator', 'admin', { body: AdminBody, response: Admin, status: [201] }),
  updateAdmin: route('PUT', '/api/admin/admins/{id}', 'Edit an administrator', 'admin', { params: AdminIdParams, body: AdminBody, response: Admin }),
  deleteAdmin: route('DELETE', '/api/admin/admins/{id}', 'Remove an administrator', 'admin', { params: AdminIdParams, response: MessageResponse }),
  setAdminPassword: route('POST', '/api/admin/admins/{id}/set-password', "Set an administrator's first password", 'admin', { params: AdminIdParams, body: SetAdminPasswordBody, response: MessageResponse }),
  adminActivityLog: route('GET', '/api/admin/activity-log', "Administrators' actions", 'admin', { query: AdminActivityQuery, response: z.array(AdminActivityEntry) }),
  listSettings: route('GET', '/api/admin/settings', 'System settings', 'admin', { response: SettingsList }),
  accessCode: route('GET', '/api/access-code', 'The daily access code at the access code path, for a signed-in administrator or pilot', 'pilot', { query: AccessCodeQuery, response: AccessCodeResponse }),
  putSetting: route('PUT', '/api/admin/settings/{key}', 'Change a system setting', 'admin', { params: SettingKeyParams, body: PutSettingBody, response: Setting }),
  emergencyStatus: route('GET', '/api/admin/emergency-status', 'Whether operations are shut down', 'admin', { response: EmergencyStatus }),
  emergencyShutdown: route('POST', '/api/admin/emergency-shutdown', 'Shut down operations, ending every pilot session', 'admin', { body: EmergencyShutdownBody, response: EmergencyShutdownResponse }),
  resumeOperations: route('POST', '/api/admin/resume-operations', 'Resume operations', 'admin', { response: MessageResponse }),
  restartServer: route('POST', '/api/admin/restart-server', 'Restart every service', 'admin', { response: MessageResponse }),
  cleanupConfig: route('GET', '/api/admin/cleanup/config', 'The trip clean-up schedule', 'admin', { response: CleanupConfig }),
  setCleanupConfig: route('POST', '/api/admin/cleanup/config', 'Change the clean-up schedule', 'admin', { body: CleanupConfigBody, response: CleanupConfig }),
  cleanupPreview: route('GET', '/api/admin/cleanup/preview', 'How many trips a clean-up would delete', 'admin', { query: CleanupPreviewQuery, response: PurgePreviewReply }),
  runCleanup: route('POST', '/api/admin/cleanup/run', 'Run a clean-up now', 'admin', { body: CleanupRunBody, response: CleanupRunResponse }),
  cleanupHistory: route('GET', '/api/admin/cleanup/history', 'Past clean-ups', 'admin', { response: z.array(CleanupRun) }),

  // The admin console: pilots and sessions (auth)
  adminPilots: route('GET', '/api/admin/pilots', 'Pilots, searched and paged', 'admin', { query: AdminPilotsQuery, response: AdminPilotList }),
  adminUpdatePilot: route('PATCH', '/api/admin/pilots/{id}', "Edit a pilot's profile", 'admin', { params: IdParams, body: AdminUpdatePilotBody, response: Pilot }),
  adminDeletePilot: route('DELETE', '/api/admin/pilots/{id}', 'Delete a pilot', 'admin', { params: IdParams, response: MessageResponse }),
  adminResetPilotPassword: route('PATCH', '/api/admin/pilots/{id}/password', "Reset a pilot's password to a temporary one", 'admin', { params: IdParams, body: AdminPilotPasswordBody, response: AdminPilotPasswordReply }),
  activeSessions: route('GET', '/api/admin/sessions/active', 'Pilots signed in now', 'admin', { response: ActiveSessions }),
  sessionHistory: route('GET', '/api/admin/sessions/history', 'Recent sign-ins', 'admin', { response: SessionHistory }),
  recentRegistrations: route('GET', '/api/admin/recent-registrations', 'Recent registrations', 'admin', { response: RecentRegistrations }),
  deletedPilots: route('GET', '/api/admin/cleanup/deleted-pilots', 'Deleted profiles within or past their 30 days', 'admin', { response: DeletedPilotList }),
  purgeDeletedPilot: route('DELETE', '/api/admin/cleanup/deleted-pilots/{id}', 'Remove a deleted profile for good (past its 30 days)', 'admin', { params: IdParams, response: MessageResponse }),

  // The admin console: airports and analytics (trips)
  adminIataCodes: route('GET', '/api/admin/iata-codes', 'Airport codes added by pilots and administrators', 'admin', { response: z.array(IataCode) }),
  adminCreateIataCode: route('POST', '/api/admin/iata-codes', 'Add an airport code', 'admin', { body: CreateIataCodeBody, response: IataCode, status: [201] }),
  adminUpdateIataCode: route('PATCH', '/api/admin/iata-codes/{id}', 'Edit an airport code', 'admin', { params: IdParams, body: UpdateIataCodeBody, response: IataCode }),
  adminDeleteIataCode: route('DELETE', '/api/admin/iata-codes/{id}', 'Remove an airport code', 'admin', { params: IdParams, status: [204] }),
  excludedAirports: route('GET', '/api/admin/excluded-airports', 'Airports left out of routes', 'admin', { response: z.array(ExcludedAirport) }),
  excludeAirport: route('POST', '/api/admin/excluded-airports', 'Exclude an airport from routes', 'admin', { body: CreateExcludedAirportBody, response: ExcludedAirport, status: [201] }),
  includeAirport: route('DELETE', '/api/admin/excluded-airports/{id}', 'Include an airport again', 'admin', { params: IdParams, status: [204] }),
  adminAnalytics: route('GET', '/api/admin/analytics', 'Pilots and trips by rank and fleet', 'admin', { response: AdminAnalytics }),
  comprehensiveAnalytics: route('GET', '/api/admin/analytics/comprehensive', 'The analytics page', 'admin', { response: ComprehensiveAnalytics }),
  proposalStats: route('GET', '/api/admin/swaps/proposal-stats', 'Swap proposals made, agreed, cancelled and approved by fleet and rank (30 days)', 'admin', { response: ProposalStats }),
  swapBreakdown: route('GET', '/api/admin/analytics/swap-breakdown', 'Swap offers by kind, fleet and rank', 'admin', { response: SwapBreakdown }),

  // The admin console: roster imports (roster-ingest)
  rosterHistory: route('GET', '/api/admin/roster-history', 'Roster imports, filtered', 'admin', { query: RosterHistoryQuery, response: RosterHistoryList }),
  rosterStats: route('GET', '/api/admin/roster-history/stats', 'Roster import figures', 'admin', { response: RosterStats }),
} as const satisfies Record<string, ApiRoute>;

/** Every route of the public API, in the catalogue's order: the OpenAPI document's and the tests' list. */
export const API_ROUTES: readonly ApiRoute[] = Object.values(API);

/** 'GET /api/trips/{id}': how tests and the document name a route. */
export const routeKey = (route: Pick<ApiRoute, 'method' | 'path'>): string => `${route.method} ${route.path}`;
