import type { StreamName } from '@crewswap/proto';
import type { JsMsg } from 'nats';
import type { Trx } from '../data/db';
import type { Bus } from './nats';
import { pullDurable, readEvent, retryOrGiveUp, type EventOf, type PulledOptions, type RunningConsumer, type Subject } from './pull';

/**
 * What a durable consumer does with an event. `prepare` runs with no transaction open: the slow
 * remote work (an RPC, parsing a mail) goes there, so a pool connection is not pinned while it
 * waits. `apply` gets its result and writes, inside the transaction that also records the event
 * as handled. A prepare that fails is retried like an apply that fails.
 */
export interface EventHandler<S extends Subject, P = undefined> {
  prepare?(event: EventOf<S>): Promise<P>;
  apply(event: EventOf<S>, prepared: P, trx: Trx): Promise<void>;
}

export interface DurableOptions<S extends Subject, P> extends PulledOptions<S> {
  /**
   * Events handled at once (default 1, in order). Only for consumers whose events are independent
   * of each other, such as work items; a read model that applies versions in order keeps 1.
   */
  concurrency?: number;
  handler: EventHandler<S, P>;
}

/**
 * A durable pull consumer, each event applied once: `apply` runs in a transaction with the record
 * that the event was handled (`processed_events`), and the message is acked only after that
 * commits. A redelivered event finds its record and changes nothing; `prepare` may run again for
 * it, so what it asks of others must be safe to ask twice. Failures are retried with backoff,
 * then recorded in `dead_letters` (see retryOrGiveUp).
 */
export function startDurableConsumer<S extends Subject, P = undefined>(options: DurableOptions<S, P>): Promise<RunningConsumer> {
  const { db, durable, handler } = options;
  const handled = async (eventId: string) => Boolean(await db('processed_events').where({ consumer: durable, event_id: eventId }).first());

  async function handleDurable(message: JsMsg): Promise<void> {
    const event = readEvent(options, message);
    if (!event) return;
    try {
      // A redelivery of an event already applied skips the remote work too.
      if (handler.prepare && (await handled(event.id))) {
        message.ack();
        return;
      }
      const prepared = (handler.prepare ? await handler.prepare(event) : undefined) as P;
      await db.transaction(async (trx) => {
        const fresh = await trx('processed_events').insert({ consumer: durable, event_id: event.id }).onConflict(['consumer', 'event_id']).ignore().returning('event_id');
        if (fresh.length > 0) await handler.apply(event, prepared, trx);
      });
      message.ack();
    } catch (error) {
      await retryOrGiveUp(options, message, event, error);
    }
  }

  return pullDurable(options, handleDurable);
}

/**
 * Removes a durable consumer (nothing when there is none), so its next start reads the stream from
 * the beginning: how a read model is rebuilt once its own records are cleared too.
 */
export async function removeDurableConsumer(bus: Bus, stream: StreamName, durable: string): Promise<void> {
  await bus.jsm.consumers.delete(bus.stream(stream), durable).catch(() => undefined);
}
