import { z } from 'zod';
import { IsoDate, SessionEndReason } from './common';
import { Pilot } from './pilot';
import { WhatsappGroupEvent } from './crew';
import { SettingKey } from './settings';
import { AlertReason } from './alerts';
import { NotificationPreferences, PushKind } from './notifications';
import { TripChangeOrigin } from './realtime';
import { Trip } from './trip';
import { TripDutyTimes } from './flight-times';
import { AgreementEvent, ProposalEvent } from './proposals';
import { SUBJECTS } from './subjects';
import { ROSTER_SOURCES } from './roster-files';

/** The envelope every event travels in. `id` doubles as the JetStream `Nats-Msg-Id`. */
export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string(),
  occurredAt: z.string(),
  version: z.number().int().min(1),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: T };

export const PilotProfileEvent = z.object({ pilot: Pilot });
export const PilotDeletedEvent = z.object({ pilotId: z.uuid(), employeeId: z.string() });
export const SessionRevokedEvent = z.object({
  sessionId: z.uuid(),
  pilotId: z.uuid(),
  reason: SessionEndReason,
});
export const AdminSessionRevokedEvent = z.object({ sessionId: z.uuid(), adminId: z.uuid() });
export const SessionStartedEvent = z.object({ sessionId: z.uuid(), pilotId: z.uuid() });
export const AdminSessionStartedEvent = z.object({ sessionId: z.uuid(), adminId: z.uuid() });
/** A guard's question to the session's owner, and its answer (see sessionIssuedSubject). */
export const SessionIssuedRequest = z.object({ sessionId: z.uuid() });
export const SessionIssuedReply = z.object({ issued: z.boolean() });
/**
 * The same question over HTTP, for a guard that cannot ask over NATS: auth (pilot sessions) and
 * admin (admin sessions) answer `GET /internal/sessions/{id}` (INTERNAL_SESSION_PATH) on their
 * own port, which only the cluster reaches (the gateway forwards nothing but `/api/*`). `live`: issued and
 * not ended; `ended` with auth's reason for a pilot's; `never-issued`.
 */
export const INTERNAL_SESSION_PATH = '/internal/sessions/:id';
export const SessionState = z.enum(['live', 'ended', 'never-issued']);
export type SessionState = z.infer<typeof SessionState>;
export const SessionStateReply = z.object({ state: SessionState, reason: SessionEndReason.optional() });
export type SessionStateReply = z.infer<typeof SessionStateReply>;
/** A question to a service about its outbox: how many events on these subjects it still holds unpublished (see outboxPendingSubject). */
export const OutboxPendingRequest = z.strictObject({ subjects: z.array(z.string().min(1).max(200)).min(1).max(50) });
export const OutboxPendingReply = z.object({ pending: z.number().int().min(0) });
/** `origin` says which channel made the change (absent in events written before it was added). */
/** `movedFrom`: the pilot who held the trip before crewing approved a swap (issue 53), told too. */
export const TripEvent = z.object({ trip: Trip, origin: TripChangeOrigin.optional(), movedFrom: z.uuid().optional() });
/** `trip` is the trip as it was when deleted (absent in events written before it was added). */
export const TripDeletedEvent = z.object({ tripId: z.uuid(), pilotId: z.uuid(), trip: Trip.optional(), origin: TripChangeOrigin.optional() });
export const SettingsChangedEvent = z.object({ key: SettingKey, value: z.string() });
export const SystemEvent = z.object({ reason: z.string().nullable() });

export const SendMailCommand = z.object({
  to: z.email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
  /** The daily digest of this pilot: notifications adds its signed one-click unsubscribe link (RFC 8058). */
  digestFor: z.uuid().optional(),
});
export const SendPushCommand = z.object({
  pilotId: z.uuid(),
  kind: PushKind,
  title: z.string(),
  body: z.string(),
  url: z.string().optional(),
  /** Lets push-sender drop a repeat of the same alert. */
  dedupeKey: z.string(),
  /** Why the pilot gets it (the bell shows it); absent: not a bell entry (a test push). */
  reason: AlertReason.optional(),
  /** An urgent offer's alert: through quiet hours when the pilot allows it. */
  urgent: z.boolean().optional(),
});

/** A pilot's preferences after every change (versioned per pilot); swaps projects them to pick alert recipients. */
export const NotificationPreferencesChangedEvent = z.object({ pilotId: z.uuid(), preferences: NotificationPreferences });

export const RosterProcessedEvent = z.object({
  pilotId: z.uuid(),
  historyId: z.uuid(),
  source: z.enum(ROSTER_SOURCES),
  processedCount: z.number().int(),
  duplicateCount: z.number().int(),
  conflictCount: z.number().int(),
  skippedCount: z.number().int(),
  /** Roster-sourced trips the import changed or removed (absent in events written before they were added). */
  changedCount: z.number().int().optional(),
  removedCount: z.number().int().optional(),
  changedTripIds: z.array(z.uuid()).optional(),
});
export const RosterMailReceivedEvent = z.object({ mailId: z.uuid() });

/** Which data schema belongs to which subject; publishers and consumers both validate with it. */
export const EVENT_DATA = {
  [SUBJECTS.pilotRegistered]: PilotProfileEvent,
  [SUBJECTS.pilotUpdated]: PilotProfileEvent,
  [SUBJECTS.pilotDeleted]: PilotDeletedEvent,
  [SUBJECTS.sessionStarted]: SessionStartedEvent,
  [SUBJECTS.sessionRevoked]: SessionRevokedEvent,
  [SUBJECTS.adminSessionStarted]: AdminSessionStartedEvent,
  [SUBJECTS.adminSessionRevoked]: AdminSessionRevokedEvent,
  [SUBJECTS.tripCreated]: TripEvent,
  [SUBJECTS.tripUpdated]: TripEvent,
  [SUBJECTS.tripOffered]: TripEvent,
  [SUBJECTS.tripDeleted]: TripDeletedEvent,
  [SUBJECTS.whatsappGroupCreated]: WhatsappGroupEvent,
  [SUBJECTS.whatsappGroupActivated]: WhatsappGroupEvent,
  [SUBJECTS.whatsappGroupClaimed]: WhatsappGroupEvent,
  [SUBJECTS.whatsappGroupDeleted]: WhatsappGroupEvent,
  [SUBJECTS.settingsChanged]: SettingsChangedEvent,
  [SUBJECTS.systemShutdown]: SystemEvent,
  [SUBJECTS.systemResumed]: SystemEvent,
  [SUBJECTS.systemRestart]: SystemEvent,
  [SUBJECTS.sendMail]: SendMailCommand,
  [SUBJECTS.sendPush]: SendPushCommand,
  [SUBJECTS.notificationPreferencesChanged]: NotificationPreferencesChangedEvent,
  [SUBJECTS.rosterProcessed]: RosterProcessedEvent,
  [SUBJECTS.rosterMailReceived]: RosterMailReceivedEvent,
  [SUBJECTS.proposalMade]: ProposalEvent,
  [SUBJECTS.proposalAccepted]: ProposalEvent,
  [SUBJECTS.proposalDeclined]: ProposalEvent,
  [SUBJECTS.proposalCountered]: ProposalEvent,
  [SUBJECTS.proposalCancelled]: ProposalEvent,
  [SUBJECTS.proposalExpired]: ProposalEvent,
  [SUBJECTS.agreementMade]: AgreementEvent,
  [SUBJECTS.agreementCancelled]: AgreementEvent,
  [SUBJECTS.agreementApproved]: AgreementEvent,
  [SUBJECTS.agreementRefused]: AgreementEvent,
} as const;
export type EventDataMap = { [S in keyof typeof EVENT_DATA]: z.infer<(typeof EVENT_DATA)[S]> };
export type EventOf<S extends keyof EventDataMap> = EventEnvelope<EventDataMap[S]>;

// Request/reply payloads.
export const GetSettingsReply = z.record(z.string(), z.string());

export const ImportTrip = z.object({
  flightNoStart: z.string(),
  flightNoEnd: z.string(),
  aircraft: z.enum(['A330', 'A350', 'B787', 'SFF']).nullable(),
  route: z.string(),
  startDate: IsoDate,
  endDate: IsoDate,
  icsDescription: z.string().nullable(),
  /** Check-in, check-out and sectors where the roster gives them (issue 55); left out: not known. */
  reportAt: TripDutyTimes.shape.reportAt.unwrap().optional(),
  releaseAt: TripDutyTimes.shape.releaseAt.unwrap().optional(),
  sectors: TripDutyTimes.shape.sectors.unwrap().optional(),
});
export const ImportTripsRequest = z.object({
  pilotId: z.uuid(),
  trips: z.array(ImportTrip).max(2000),
  /** Where the roster came from: a file the pilot uploaded, a mail, or a fetch of the pilot's roster address. */
  source: z.enum(['upload', 'email', 'subscription']).default('upload'),
  /** Asking again with the same id answers the first reply and stores nothing (a redelivered mail). */
  importId: z.uuid().optional(),
});
/**
 * One difference a roster import made against the pilot's trips from earlier rosters (over the
 * period the new roster covers): `before` is the trip as it was, `after` as it now is.
 */
export const RosterTripChange = z.object({
  kind: z.enum(['added', 'changed', 'removed']),
  /** The trip's id: the stored trip (added, changed) or the deleted one (removed). */
  tripId: z.uuid(),
  before: ImportTrip.optional(),
  after: ImportTrip.optional(),
});
export type RosterTripChange = z.infer<typeof RosterTripChange>;

export const ImportTripsReply = z.object({
  processedCount: z.number().int(),
  duplicateCount: z.number().int(),
  conflicts: z.array(z.object({ trip: ImportTrip, conflictsWith: z.string() })),
  skipped: z.array(z.object({ trip: ImportTrip, reason: z.string() })),
  /** Every added, changed and removed trip (replies stored before it was added have none). */
  changes: z.array(RosterTripChange).default([]),
});
export const PurgeTripsRequest = z.object({ retentionDays: z.number().int().min(1).max(30) });
export const PurgeTripsReply = z.object({ tripsDeleted: z.number().int() });
export const PurgeNotificationsReply = z.object({ notificationsDeleted: z.number().int() });
export const PurgePreviewReply = z.object({ tripsToDelete: z.number().int() });
export const TripCountsRequest = z.object({ pilotIds: z.array(z.uuid()).optional() });
export const TripCountsReply = z.object({ counts: z.record(z.string(), z.number().int()) });

/** Any RPC that fails answers this instead of its reply. */
export const RpcError = z.object({ error: z.string(), status: z.number().int() });
export type RpcError = z.infer<typeof RpcError>;

export const SeedDemoPilotsRequest = z.object({ count: z.number().int().min(1).max(500).default(60) });
export const SeedDemoPilotsReply = z.object({ created: z.number().int(), pilots: z.array(Pilot) });
export const SeedDemoTripsRequest = z.object({ pilots: z.array(Pilot) });
export const SeedDemoTripsReply = z.object({ created: z.number().int() });

/** Admin asks auth to enter or leave emergency shutdown; auth ends the sessions and counts them. */
export const SystemStateRequest = z.object({ shutdown: z.boolean(), reason: z.string().nullable() });
export const SystemStateReply = z.object({ sessionsTerminated: z.number().int().min(0) });
