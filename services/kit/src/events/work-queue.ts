import type { JsMsg } from 'nats';
import { pullDurable, readEvent, retryOrGiveUp, type EventOf, type PulledOptions, type RunningConsumer, type Subject } from './pull';

export interface WorkQueueOptions<S extends Subject> extends PulledOptions<S> {
  /** Commands worked at once across this process (network-bound work wants many). */
  concurrency: number;
  /**
   * Does one command; throwing means "try again later". Nothing records it for the handler: it
   * must be idempotent by its own record (a command may be delivered more than once).
   */
  handle(command: EventOf<S>): Promise<void>;
}

/**
 * A work queue: one durable consumer every replica pulls from, so each command goes to one of
 * them, `concurrency` at a time. Unlike a durable consumer the kit opens no transaction: commands
 * are remote work (a push, a mail) whose handler keeps its own record. A failed command is
 * retried with backoff, then recorded in `dead_letters` (see retryOrGiveUp).
 */
export function startWorkQueue<S extends Subject>(options: WorkQueueOptions<S>): Promise<RunningConsumer> {
  async function handleWork(message: JsMsg): Promise<void> {
    const command = readEvent(options, message);
    if (!command) return;
    try {
      await options.handle(command);
      message.ack();
    } catch (error) {
      await retryOrGiveUp(options, message, command, error);
    }
  }

  return pullDurable(options, handleWork);
}
