import { SUBJECTS, type EventDataMap, type EventEnvelope } from '@crewswap/proto';
import { stampOf, type PilotChange, type TripChange } from '../data/read-model';

export const PILOT_SUBJECTS = [SUBJECTS.pilotRegistered, SUBJECTS.pilotUpdated, SUBJECTS.pilotDeleted] as const;
export const TRIP_SUBJECTS = [SUBJECTS.tripCreated, SUBJECTS.tripUpdated, SUBJECTS.tripOffered, SUBJECTS.tripDeleted] as const;
export const SETTING_SUBJECTS = [SUBJECTS.settingsChanged] as const;
/** A setting swaps keeps (the projection never stores secrets such as testing_password). */
export const SWAP_SEARCH_DAYS = 'swap_search_days';
/** The limits Find swaps, proposals and the desk check a swap against (issue 55); the defaults until one is set. */
export const FLIGHT_TIME_LIMITS = 'flight_time_limits';
/** The settings swaps keeps: these alone. */
export const KEPT_SETTINGS: readonly string[] = [SWAP_SEARCH_DAYS, FLIGHT_TIME_LIMITS];

type Envelope<S extends keyof EventDataMap> = { [K in S]: EventEnvelope<EventDataMap[K]> & { type: K } }[S];

export function pilotChangeOf(event: Envelope<(typeof PILOT_SUBJECTS)[number]>): PilotChange {
  const stamp = stampOf(event);
  return event.type === SUBJECTS.pilotDeleted
    ? { kind: 'deleted', pilotId: event.data.pilotId, stamp }
    : { kind: 'profile', pilot: event.data.pilot, stamp };
}

export function tripChangeOf(event: Envelope<(typeof TRIP_SUBJECTS)[number]>): TripChange {
  const stamp = stampOf(event);
  return event.type === SUBJECTS.tripDeleted
    ? { kind: 'deleted', tripId: event.data.tripId, pilotId: event.data.pilotId, stamp }
    : { kind: 'trip', trip: event.data.trip, stamp };
}
