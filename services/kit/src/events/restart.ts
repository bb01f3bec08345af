import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import { follow } from '.';
import type { Bus } from './nats';

export interface RestartListener {
  /** Called once when an admin asks for a restart after this process started. */
  onRestartRequested(fn: () => void): void;
  stop(): Promise<void>;
}

/**
 * Follows `admin.system.restart` from now (a follower, never a shared durable, so every replica
 * of every service hears it; old restarts are never replayed). A request made before this process
 * started (published late, after an outage) is ignored: the process is already new.
 */
export async function startRestartListener(options: { bus: Bus; log: Logger; startedAt: Date }): Promise<RestartListener> {
  const { bus, log, startedAt } = options;
  const callbacks: (() => void)[] = [];
  let requested = false;
  const follower = await follow({
    bus,
    log,
    stream: 'ADMIN',
    subjects: [SUBJECTS.systemRestart],
    handle: (event) => {
      const occurredAt = new Date(event.occurredAt);
      if (occurredAt < startedAt || requested) return;
      requested = true;
      log.info({ occurredAt }, 'restart requested by an admin');
      for (const fn of callbacks) fn();
    },
  });
  return {
    onRestartRequested(fn) {
      callbacks.push(fn);
      if (requested) fn();
    },
    stop: () => follower.stop(),
  };
}
