import { EventEnvelope, SUBJECTS } from '@crewswap/proto';
import { DeliverPolicy } from 'nats';
import type { Logger } from 'pino';
import type { Bus } from './nats';

export interface RestartListener {
  /** Called once when an admin asks for a restart after this process started. */
  onRestartRequested(fn: () => void): void;
  stop(): Promise<void>;
}

/**
 * Follows `admin.system.restart` with a consumer of this process's own (ordered, never a shared
 * durable, so every replica of every service hears it) starting from now, so old restarts are
 * never replayed. A request made before this process started (published late, after an outage)
 * is ignored: the process is already new.
 */
export async function startRestartListener(options: { bus: Bus; log: Logger; startedAt: Date }): Promise<RestartListener> {
  const { bus, log, startedAt } = options;
  const callbacks: (() => void)[] = [];
  let requested = false;
  const consumer = await bus.js.consumers.get(bus.stream('ADMIN'), {
    filterSubjects: bus.subject(SUBJECTS.systemRestart),
    deliver_policy: DeliverPolicy.New,
  });
  const messages = await consumer.consume();
  const done = (async () => {
    for await (const message of messages) {
      let occurredAt: Date;
      try {
        occurredAt = new Date(EventEnvelope.parse(message.json()).occurredAt);
      } catch (error) {
        log.warn({ err: error }, 'ignoring an unreadable restart request');
        continue;
      }
      if (occurredAt < startedAt || requested) continue;
      requested = true;
      log.info({ occurredAt }, 'restart requested by an admin');
      for (const fn of callbacks) fn();
    }
  })();
  return {
    onRestartRequested(fn) {
      callbacks.push(fn);
      if (requested) fn();
    },
    async stop() {
      await messages.close();
      await done;
    },
  };
}
