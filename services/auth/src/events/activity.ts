import { followSessionActivity, type Bus, type Clock, type Logger } from '@crewswap/kit';
import type { SessionRepository } from '../data/sessions';

/**
 * Auth records use of pilot sessions. Our clock stamps it: the report is milliseconds old, and one
 * time source keeps the idle sweep consistent.
 */
export function startActivitySubscription(deps: { bus: Bus; log: Logger; clock: Clock; sessions: SessionRepository }): { stop(): void } {
  return followSessionActivity({
    bus: deps.bus,
    log: deps.log,
    queue: 'auth.session-activity',
    touch: (sessionId) => deps.sessions.touch(sessionId, deps.clock.now()),
  });
}
