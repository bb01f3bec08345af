import type { Bus, Clock, Logger } from '@crewswap/kit';
import { SESSION_ACTIVITY } from '@crewswap/proto';
import { z } from 'zod';
import type { SessionRepository } from '../data/sessions';

const Activity = z.object({ sessionId: z.uuid(), at: z.string() });

/**
 * Every service's session guard reports use of a session (at most once a minute). Replicas share
 * a queue group so each report is written once. Our clock stamps it: the report is milliseconds
 * old, and one time source keeps the idle sweep consistent.
 */
export function startActivitySubscription(deps: { bus: Bus; log: Logger; clock: Clock; sessions: SessionRepository }): { stop(): void } {
  const subscription = deps.bus.nc.subscribe(deps.bus.subject(SESSION_ACTIVITY), {
    queue: 'auth.session-activity',
    callback: (error, message) => {
      if (error) return;
      let sessionId: string;
      try {
        sessionId = Activity.parse(message.json()).sessionId;
      } catch {
        return;
      }
      deps.sessions.touch(sessionId, deps.clock.now()).catch((failure: unknown) => deps.log.warn({ err: failure }, 'could not record session activity'));
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
