import { SESSION_ACTIVITY } from '@crewswap/proto';
import { z } from 'zod';
import type { AuthContext } from '../domain/context';

const Activity = z.object({ sessionId: z.uuid(), at: z.string() });

/**
 * Every service's session guard reports use of a session (at most once a minute). Replicas share
 * a queue group so each report is written once. Our clock stamps it: the report is milliseconds
 * old, and one time source keeps the idle sweep consistent.
 */
export function startActivitySubscription(ctx: AuthContext): { stop(): void } {
  const subscription = ctx.bus.nc.subscribe(ctx.bus.subject(SESSION_ACTIVITY), {
    queue: 'auth.session-activity',
    callback: (error, message) => {
      if (error) return;
      let sessionId: string;
      try {
        sessionId = Activity.parse(message.json()).sessionId;
      } catch {
        return;
      }
      ctx.repos.sessions.touch(sessionId, ctx.clock.now()).catch((failure: unknown) => ctx.log.warn({ err: failure }, 'could not record session activity'));
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
