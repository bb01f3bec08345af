import { DIRECT } from '@crewswap/proto';
import type { Logger } from 'pino';
import { subscribeDirect } from '../events/direct';
import type { Bus } from '../events/nats';

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
  return subscribeDirect({
    bus: options.bus,
    log: options.log,
    channel: DIRECT.sessionActivity,
    queue: options.queue,
    handle: async ({ sessionId }) => {
      await options.touch(sessionId).catch((failure: unknown) => options.log.warn({ err: failure, queue: options.queue }, 'could not record session activity'));
    },
  });
}
