import { SESSION_ACTIVITY } from '@crewswap/proto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Bus } from './nats';

const Activity = z.object({ sessionId: z.uuid(), at: z.string() });

export interface FollowSessionActivityOptions {
  bus: Bus;
  log: Logger;
  /** The service's own queue group, e.g. 'auth.session-activity': replicas share it, so each report is written once. */
  queue: string;
  /** Records use of the session; a session id that is not the service's own should change nothing. */
  touch(sessionId: string): Promise<unknown>;
}

/**
 * Every service's session guard reports use of a session (at most once a minute) on core NATS;
 * the services that own sessions (auth, admin) record it with `touch`.
 */
export function followSessionActivity(options: FollowSessionActivityOptions): { stop(): void } {
  const subscription = options.bus.nc.subscribe(options.bus.subject(SESSION_ACTIVITY), {
    queue: options.queue,
    callback: (error, message) => {
      if (error) return;
      let sessionId: string;
      try {
        sessionId = Activity.parse(message.json()).sessionId;
      } catch {
        return;
      }
      options.touch(sessionId).catch((failure: unknown) => options.log.warn({ err: failure, queue: options.queue }, 'could not record session activity'));
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
