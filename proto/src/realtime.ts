import { z } from 'zod';
import { AlertReason } from './alerts';
import { ROSTER_SOURCES } from './roster-files';

/**
 * The server-sent events of `GET /api/sse/events`. Every frame is a default (unnamed) SSE message
 * whose `data:` line is one JSON object told apart by `type`, so a client needs only `onmessage`
 * and `SseMessage.parse(JSON.parse(event.data))`. Error frames are the last thing on a stream: the
 * server closes it right after, and the client must not reconnect.
 *
 * The spec's client rules: 'connected' and 'heartbeat' are ignored; a message containing
 * 'trips added' or the text 'trips-updated' refreshes the trips list; `auth_failed` with category
 * `admin_shutdown` sets showAdminShutdown, any other `auth_failed` sets showSessionExpired,
 * `logged_in_elsewhere` sets showLoggedInElsewhere, and each goes to "/". Beyond the spec,
 * 'swaps-updated' refreshes the trips and swaps, and 'bell-updated' the bell's alerts.
 */

/** Which way a change to a pilot's trips came in; 'trips-updated' goes to the pilot's other channels. */
export const TripChangeChannel = z.enum(['app', 'roster_upload', 'roster_email', 'roster_subscription', 'admin', 'system']);
export type TripChangeChannel = z.infer<typeof TripChangeChannel>;

/** The channel a roster import's changes come by, from where the roster came from. */
export const ROSTER_CHANNEL = { manual_upload: 'roster_upload', email: 'roster_email', subscription: 'roster_subscription' } as const satisfies Record<(typeof ROSTER_SOURCES)[number], TripChangeChannel>;
/** A change a roster import made (its pilot is told once, by the import's own notice). */
export const isRosterChannel = (channel: TripChangeChannel): boolean => (Object.values(ROSTER_CHANNEL) as TripChangeChannel[]).includes(channel);

/** Who made a trip change: the channel and, for the app, the session (device) that made it. */
export const TripChangeOrigin = z.object({
  channel: TripChangeChannel,
  /** The pilot session that made the change; its own stream is not told (it already knows). */
  sessionId: z.uuid().optional(),
});
export type TripChangeOrigin = z.infer<typeof TripChangeOrigin>;

/** Why a stream ended with `auth_failed`; `admin_shutdown` is the one the spec names. */
export const AuthFailedCategory = z.enum(['admin_shutdown', 'session_expired', 'account_deleted', 'password_reset', 'logged_out']);
export type AuthFailedCategory = z.infer<typeof AuthFailedCategory>;

export const SseConnected = z.object({ type: z.literal('connected'), at: z.string() });
export const SseHeartbeat = z.object({ type: z.literal('heartbeat'), at: z.string() });
/** What a roster import changed among the pilot's trips from earlier rosters. */
export const RosterChangeSummary = z.object({
  addedCount: z.number().int(),
  changedCount: z.number().int(),
  removedCount: z.number().int(),
  /** '3 added, 1 changed, 2 removed'. */
  summary: z.string(),
  /** The trips it changed, which the app highlights until the pilot has seen them. */
  changedTripIds: z.array(z.uuid()).optional(),
});
export type RosterChangeSummary = z.infer<typeof RosterChangeSummary>;

/** A trip of the pilot's changed through another channel (another device, an emailed roster, an admin). */
export const SseTripsUpdated = z.object({
  type: z.literal('trips-updated'),
  message: z.literal('trips-updated'),
  channel: TripChangeChannel,
  at: z.string(),
  /** A roster import that changed or removed trips says what it did, so an open app shows it at once. */
  changes: RosterChangeSummary.optional(),
});
/** A roster import finished; `message` is '<n> trips added' (the text the client looks for). */
export const SseTripsAdded = z.object({
  type: z.literal('trips-added'),
  message: z.string(),
  source: z.enum(ROSTER_SOURCES),
  processedCount: z.number().int(),
  duplicateCount: z.number().int(),
  at: z.string(),
});
/** A swap proposal or agreement of the pilot's changed (issue 37): the app refreshes its proposals and agreements. */
export const SseSwapsUpdated = z.object({
  type: z.literal('swaps-updated'),
  message: z.literal('swaps-updated'),
  /** The event's subject without 'swaps.' ('proposal.made', 'agreement.made', ...). */
  change: z.string(),
  at: z.string(),
});
/**
 * The pilot's bell changed, sent on realtime.pilot.<id>: an open app asks for its bell again at
 * once. push-sender sends it when it writes an alert (issue 39), push or no push, with the alert's
 * reason; notifications sends it without one when alerts were marked read, so they are read on
 * every device the pilot has open, not only on the next load.
 */
export const SseBellUpdated = z.object({
  type: z.literal('bell-updated'),
  message: z.literal('bell-updated'),
  /** Why the new alert came; absent when alerts were marked read. */
  reason: AlertReason.optional(),
  at: z.string(),
});
export type SseBellUpdated = z.infer<typeof SseBellUpdated>;
export const SseAuthFailed = z.object({
  type: z.literal('auth_failed'),
  category: AuthFailedCategory,
  message: z.string(),
});
export const SseLoggedInElsewhere = z.object({ type: z.literal('logged_in_elsewhere'), message: z.string() });

export const SseMessage = z.discriminatedUnion('type', [
  SseConnected,
  SseHeartbeat,
  SseTripsUpdated,
  SseTripsAdded,
  SseSwapsUpdated,
  SseBellUpdated,
  SseAuthFailed,
  SseLoggedInElsewhere,
]);
export type SseMessage = z.infer<typeof SseMessage>;

/** The words of the error frames (the login page shows its own banners from the flags). */
export const SSE_MESSAGES = {
  admin_shutdown: 'admin_shutdown',
  session_expired: 'Session expired',
  account_deleted: 'Session expired',
  password_reset: 'Session expired',
  logged_out: 'Session expired',
  loggedInElsewhere: 'You have logged in on another device.',
} as const;
