/**
 * Every NATS subject in one place. Domain events are `<service>.<aggregate>.<event>` and live in
 * the owning service's JetStream stream; request/reply calls are `<service>.rpc.<name>` on core
 * NATS and are deliberately outside every stream's subjects (a stream would answer them with a
 * publish ack instead of the service's reply).
 */
export const SUBJECTS = {
  pilotRegistered: 'auth.pilot.registered',
  pilotUpdated: 'auth.pilot.updated',
  pilotDeleted: 'auth.pilot.deleted',
  /** A pilot session was issued (login); with the revocations, what every session guard follows. */
  sessionStarted: 'auth.session.started',
  sessionRevoked: 'auth.session.revoked',
  adminSessionStarted: 'admin.session.started',
  adminSessionRevoked: 'admin.session.revoked',
  tripCreated: 'trips.trip.created',
  tripUpdated: 'trips.trip.updated',
  tripDeleted: 'trips.trip.deleted',
  tripOffered: 'trips.trip.offered',
  /** A trip's WhatsApp group (one per flight and start date) was created, got its link, changed creator, or went. */
  whatsappGroupCreated: 'trips.whatsapp.group.created',
  whatsappGroupActivated: 'trips.whatsapp.group.activated',
  whatsappGroupClaimed: 'trips.whatsapp.group.claimed',
  whatsappGroupDeleted: 'trips.whatsapp.group.deleted',
  settingsChanged: 'admin.settings.changed',
  systemShutdown: 'admin.system.shutdown',
  systemResumed: 'admin.system.resumed',
  systemRestart: 'admin.system.restart',
  sendMail: 'notifications.cmd.mail',
  sendPush: 'notifications.cmd.push',
  notificationPreferencesChanged: 'notifications.preferences.changed',
  /** After every roster import (upload or email): the pilot and the counts, for the pilot's open app. */
  rosterProcessed: 'roster.roster.processed',
  /** An emailed roster was stored; only its id travels, the raw mail stays in roster-ingest's table. */
  rosterMailReceived: 'roster.mail.received',
  /** Swap proposals and agreements (issue 37): notifications and realtime tell the pilots concerned. */
  proposalMade: 'swaps.proposal.made',
  proposalAccepted: 'swaps.proposal.accepted',
  proposalDeclined: 'swaps.proposal.declined',
  proposalCountered: 'swaps.proposal.countered',
  proposalCancelled: 'swaps.proposal.cancelled',
  proposalExpired: 'swaps.proposal.expired',
  agreementMade: 'swaps.agreement.made',
  agreementCancelled: 'swaps.agreement.cancelled',
  agreementApproved: 'swaps.agreement.approved',
  agreementRefused: 'swaps.agreement.refused',
} as const;
export type EventSubject = (typeof SUBJECTS)[keyof typeof SUBJECTS];

export const RPC = {
  getSettings: 'admin.rpc.settings.get',
  importTrips: 'trips.rpc.import',
  purgeTrips: 'trips.rpc.purge',
  purgePreview: 'trips.rpc.purge-preview',
  /** Admin's cleanup run: notifications deletes its notification log older than the retention. */
  purgeNotifications: 'notifications.rpc.purge-log',
  tripCounts: 'trips.rpc.trip-counts',
  /** Which of some airport codes are in trips' IATA list (links checks a link's destinations). */
  knownAirports: 'trips.rpc.known-airports',
  /** Demo data for local use: auth creates test pilots, then trips gives them trips (see scripts/seed-demo). */
  /** Emergency shutdown and resume: auth owns pilot sessions and logins. */
  setSystemState: 'auth.rpc.system-state',
  seedDemoPilots: 'auth.rpc.seed-demo',
  seedDemoTrips: 'trips.rpc.seed-demo',
} as const;
export type RpcSubject = (typeof RPC)[keyof typeof RPC];

/**
 * Every process answers on its service's subject how many events on the asked subjects its outbox
 * still holds unpublished (`{subjects}` -> `{pending}`): a reader that finds nothing knows whether
 * something is still on its way. A session guard back from a NATS outage asks auth and admin for
 * their revocations, and trusts sessions again only once they hold none and it has read the
 * streams up to the newest; swaps asks trips and auth before answering 'Trip not found'.
 */
export const outboxPendingSubject = (service: string) => `${service}.rpc.outbox-pending`;

/**
 * Auth (pilot sessions) and admin (admin sessions) answer on their service's subject whether they
 * ever issued a session (`{sessionId}` -> `{issued}`): a guard asks when a signed token names a
 * session it has not heard of yet (issued a moment ago, or before the guard could replay it).
 */
export const sessionIssuedSubject = (service: 'auth' | 'admin') => `${service}.rpc.session-issued`;

/** One JetStream stream per owning service, holding only its event subjects. */
export const STREAMS = {
  AUTH: ['auth.pilot.>', 'auth.session.>'],
  TRIPS: ['trips.trip.>', 'trips.whatsapp.>'],
  ADMIN: ['admin.settings.>', 'admin.system.>', 'admin.session.>'],
  /** Mail and push commands (each read by one durable consumer shared by the replicas: a work queue) and preference changes. */
  NOTIFICATIONS: ['notifications.cmd.>', 'notifications.preferences.>'],
  ROSTER: ['roster.roster.>'],
  /** Work queue of emailed rosters waiting to be parsed and imported. */
  ROSTER_MAIL: ['roster.mail.>'],
  SWAPS: ['swaps.proposal.>', 'swaps.agreement.>'],
} as const;
export type StreamName = keyof typeof STREAMS;

/**
 * Core NATS (not stored): every service's session guard reports that a session was used, at most
 * once a minute per session, so auth can end sessions idle past `session_timeout_minutes`.
 */
export const SESSION_ACTIVITY = 'sessions.activity';

/** Core NATS fan-out subjects for the realtime service (every replica receives every message). */
export const realtimePilotSubject = (pilotId: string) => `realtime.pilot.${pilotId}`;
export const REALTIME_BROADCAST = 'realtime.broadcast';
