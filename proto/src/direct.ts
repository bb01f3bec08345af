import { z } from 'zod';
import { SseBellUpdated, SseTripsAdded, SseTripsUpdated } from './realtime';
import { REALTIME_BROADCAST, realtimePilotSubject, SESSION_ACTIVITY } from './subjects';

/**
 * A core-NATS subject (not stored: heard only by whoever listens when it is published) and the
 * schema of what travels on it; the kit's `publishDirect` and `subscribeDirect` check it on both
 * sides. `name` is the subject without its variable part ('realtime.pilot.*'), for spans and logs.
 */
export interface DirectChannel<T> {
  subject: string;
  name: string;
  schema: z.ZodType<T>;
}

/** A session guard's report that a session was used (at most once a minute per session). */
export const SessionActivity = z.object({ sessionId: z.uuid(), at: z.string() });
export type SessionActivity = z.infer<typeof SessionActivity>;

/** What a service may tell a pilot's open apps directly through realtime: updates only, never a session's end. */
export const RealtimeUpdate = z.discriminatedUnion('type', [SseTripsUpdated, SseTripsAdded, SseBellUpdated]);
export type RealtimeUpdate = z.infer<typeof RealtimeUpdate>;

const direct = <T>(subject: string, schema: z.ZodType<T>, name = subject): DirectChannel<T> => ({ subject, name, schema });

/** Every core-NATS subject that is not a request/reply call, with its schema. */
export const DIRECT = {
  sessionActivity: direct(SESSION_ACTIVITY, SessionActivity),
  /** One pilot's open apps; `realtimePilot('*')` is every pilot's, as realtime listens. */
  realtimePilot: (pilotId: string) => direct(realtimePilotSubject(pilotId), RealtimeUpdate, realtimePilotSubject('*')),
  realtimeBroadcast: direct(REALTIME_BROADCAST, RealtimeUpdate),
};
