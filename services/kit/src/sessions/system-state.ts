import { SUBJECTS, SYSTEM_SHUTDOWN_MESSAGE, SYSTEM_SHUTDOWN_TITLE } from '@crewswap/proto';
import type { Logger } from 'pino';
import { HttpError } from '../http/errors';
import { follow } from '../events';
import type { Bus } from '../events/nats';

export interface SystemState {
  /** Whether an administrator's emergency shutdown is in force, as the ADMIN stream last said. */
  isShutdown(): boolean;
  /** Throws the 503 every service answers during a shutdown (the words auth's login uses). */
  assertRunning(): void;
  stop(): Promise<void>;
}

/**
 * Follows admin's emergency shutdown and resume in memory, for a replica that serves calls with
 * no session (a calendar feed): a pilot's session ends with the shutdown, a feed's address does
 * not. Starts from the last event of each subject, so a replica started mid-shutdown knows at
 * once; newest wins by occurredAt whatever order they arrive in.
 */
export async function followSystemState(deps: { bus: Bus; log: Logger }): Promise<SystemState> {
  let shutdown = false;
  let latest = '';
  const follower = await follow({
    bus: deps.bus,
    log: deps.log,
    stream: 'ADMIN',
    filter: 'admin.system.>',
    subjects: [SUBJECTS.systemShutdown, SUBJECTS.systemResumed],
    from: 'last-per-subject',
    handle(event) {
      if (event.occurredAt < latest) return;
      latest = event.occurredAt;
      shutdown = event.type === SUBJECTS.systemShutdown;
    },
  });
  return {
    isShutdown: () => shutdown,
    assertRunning() {
      if (shutdown) throw new HttpError(503, SYSTEM_SHUTDOWN_MESSAGE, { title: SYSTEM_SHUTDOWN_TITLE, extra: { systemShutdown: true } });
    },
    stop: () => follower.stop(),
  };
}
