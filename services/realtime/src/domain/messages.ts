import {
  isRosterChannel,
  ROSTER_CHANNEL,
  rosterChangeSummary,
  SUBJECTS,
  SSE_MESSAGES,
  tripsAddedMessage,
  type AuthFailedCategory,
  type EventDataMap,
  type SseMessage,
  type TripChangeOrigin,
} from '@crewswap/proto';
import type { RevocationReason } from '@crewswap/kit';

/** What a trip change means for the pilot's open streams, or null when they need not hear of it. */
export interface TripNotice {
  pilotId: string;
  /** The session that made the change: its own streams are left alone. */
  exceptSessionId?: string;
  /** The pilot who held the trip before a swap crewing approved: their trips page follows too. */
  movedFrom?: string;
  message: SseMessage;
}

type TripEventData = EventDataMap['trips.trip.created'] | EventDataMap['trips.trip.deleted'];

export function tripNotice(data: TripEventData, occurredAt: string): TripNotice | null {
  const pilotId = 'tripId' in data ? data.pilotId : data.trip.pilotId;
  const origin: TripChangeOrigin = data.origin ?? { channel: 'system' };
  // An import tells the pilot once, as 'trips added' (roster.roster.processed), not per trip.
  if (isRosterChannel(origin.channel)) return null;
  return {
    pilotId,
    ...(origin.sessionId ? { exceptSessionId: origin.sessionId } : {}),
    ...('movedFrom' in data && data.movedFrom ? { movedFrom: data.movedFrom } : {}),
    message: { type: 'trips-updated', message: 'trips-updated', channel: origin.channel, at: occurredAt },
  };
}

export const SWAP_SUBJECTS = [
  SUBJECTS.proposalMade,
  SUBJECTS.proposalAccepted,
  SUBJECTS.proposalDeclined,
  SUBJECTS.proposalCountered,
  SUBJECTS.proposalCancelled,
  SUBJECTS.proposalExpired,
  SUBJECTS.agreementMade,
  SUBJECTS.agreementCancelled,
  SUBJECTS.agreementApproved,
  SUBJECTS.agreementRefused,
] as const;
type SwapEvent = { type: (typeof SWAP_SUBJECTS)[number]; data: EventDataMap[(typeof SWAP_SUBJECTS)[number]] };

/** Both pilots of a proposal or agreement hear of every change to it. */
export function swapNotice(event: SwapEvent, occurredAt: string): { pilotIds: string[]; message: SseMessage } {
  const { proposer, owner } = 'proposal' in event.data ? event.data.proposal : event.data.agreement;
  return {
    pilotIds: [proposer.pilot.id, owner.pilot.id],
    message: { type: 'swaps-updated', message: 'swaps-updated', change: event.type.replace(/^swaps\./, ''), at: occurredAt },
  };
}

export function rosterNotice(data: EventDataMap['roster.roster.processed'], occurredAt: string): { pilotId: string; message: SseMessage } {
  const changedCount = data.changedCount ?? 0;
  const removedCount = data.removedCount ?? 0;
  // A roster fetched on its own is told whatever it changed, added trips alone too: the pilot did not send it.
  const fetched = data.source === 'subscription' && data.processedCount > 0;
  if (changedCount + removedCount > 0 || fetched) {
    // A roster that changed or removed trips says what it did, so an open app shows it at once.
    const changes = {
      addedCount: data.processedCount,
      changedCount,
      removedCount,
      summary: rosterChangeSummary(data.processedCount, changedCount, removedCount),
      ...(data.changedTripIds ? { changedTripIds: data.changedTripIds } : {}),
    };
    const channel = ROSTER_CHANNEL[data.source];
    return { pilotId: data.pilotId, message: { type: 'trips-updated', message: 'trips-updated', channel, at: occurredAt, changes } };
  }
  return {
    pilotId: data.pilotId,
    message: {
      type: 'trips-added',
      message: tripsAddedMessage(data.processedCount),
      source: data.source,
      processedCount: data.processedCount,
      duplicateCount: data.duplicateCount,
      at: occurredAt,
    },
  };
}

const CATEGORY: Record<Exclude<RevocationReason, 'logged_in_elsewhere'>, AuthFailedCategory> = {
  admin_shutdown: 'admin_shutdown',
  timeout: 'session_expired',
  deleted: 'account_deleted',
  password_reset: 'password_reset',
  logout: 'logged_out',
};

/** The last frame of a stream whose session ended, by auth's reason. */
export function sessionEndedMessage(reason: RevocationReason | undefined): SseMessage {
  if (reason === 'logged_in_elsewhere') return { type: 'logged_in_elsewhere', message: SSE_MESSAGES.loggedInElsewhere };
  const category = reason ? CATEGORY[reason] : 'session_expired';
  return { type: 'auth_failed', category, message: SSE_MESSAGES[category] };
}

export function frame(message: SseMessage): string {
  return `data: ${JSON.stringify(message)}\n\n`;
}
