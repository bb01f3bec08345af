import { EVENT_DATA, EventEnvelope, type EventDataMap, type StreamName } from '@crewswap/proto';
import { AckPolicy, DeliverPolicy, type JsMsg } from 'nats';
import type { Logger } from 'pino';
import type { Db, Trx } from './db';
import type { Bus } from './nats';
import type { Subject } from './outbox';
import { noteConsumer } from './runtime-metrics';
import { withMessageContext } from './tracing';

export type EventHandler = <S extends Subject>(
  event: EventEnvelope<EventDataMap[S]> & { type: S },
  trx: Trx,
) => Promise<void>;

export interface ConsumerOptions<S extends Subject> {
  db: Db;
  bus: Bus;
  log: Logger;
  stream: StreamName;
  /** Durable name: one per (service, purpose). Replicas share it, so each event is handled once. */
  durable: string;
  /**
   * One subject filter (wildcards allowed, e.g. `auth.pilot.>`): the NATS 2.9 servers we run on
   * take a single filter per consumer. Events under it that are not in `subjects` are acked unread.
   */
  filter: string;
  subjects: readonly S[];
  /** How long a taken event may stay unacked before another replica gets it (default 30 s). */
  ackWaitMs?: number;
  /**
   * Events handled at once (default 1, in order). Only for consumers whose events are independent
   * of each other, such as work items; a read model that applies versions in order keeps 1.
   */
  concurrency?: number;
  /** Deliveries before an event is given up on and recorded in `dead_letters` (default 10). */
  maxDeliver?: number;
  /** Delay before each redelivery after a failure, by attempt; the last repeats (default 1 s, 5 s, 30 s, 2 min, 5 min). */
  backoffMs?: readonly number[];
  handle: (event: { [K in S]: EventEnvelope<EventDataMap[K]> & { type: K } }[S], trx: Trx) => Promise<void>;
}

export const DEFAULT_BACKOFF_MS = [1_000, 5_000, 30_000, 120_000, 300_000] as const;
export const DEFAULT_MAX_DELIVER = 10;

/** The wait before delivery `attempt + 1` after a failed `attempt` (1-based). */
export function backoffDelay(backoffMs: readonly number[], attempt: number): number {
  return backoffMs[Math.min(Math.max(attempt, 1), backoffMs.length) - 1] ?? 1_000;
}

/**
 * Records an event a consumer gives up on (its last delivery failed, or it cannot be read), so it
 * is not lost silently. Idempotent per (consumer, event).
 */
export async function recordDeadLetter(
  db: Db,
  entry: { consumer: string; eventId: string | null; subject: string; deliveries: number; error: string; payload: unknown },
): Promise<void> {
  await db('dead_letters')
    .insert({
      consumer: entry.consumer,
      event_id: entry.eventId,
      subject: entry.subject,
      deliveries: entry.deliveries,
      error: entry.error.slice(0, 4000),
      payload: entry.payload === undefined ? null : JSON.stringify(entry.payload),
    })
    .onConflict(['consumer', 'event_id'])
    .ignore();
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * A durable pull consumer whose handler runs in a transaction with the record that the event was
 * applied; the message is acked only after that commits. A redelivered event finds its record
 * and changes nothing. An event that is not valid JSON or does not match its schema is logged
 * and terminated (retrying it could never succeed). A failing handler is retried after a growing
 * delay (`backoffMs`); after `maxDeliver` deliveries the event goes to `dead_letters` and is
 * terminated, so one poisoned event cannot hold a consumer's attention for ever.
 */
export async function startConsumer<S extends Subject>(options: ConsumerOptions<S>): Promise<RunningConsumer> {
  const { db, bus, log, durable } = options;
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const stream = bus.stream(options.stream);
  const filterSubject = bus.subject(options.filter);
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filterSubject,
    ack_wait: (options.ackWaitMs ?? 30_000) * 1_000_000,
    max_ack_pending: 100,
  };
  try {
    await bus.jsm.consumers.info(stream, durable);
    await bus.jsm.consumers.update(stream, durable, { filter_subject: filterSubject });
  } catch {
    await bus.jsm.consumers.add(stream, config);
  }
  noteConsumer(bus, stream, durable);
  const consumer = await bus.js.consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: 50 });

  const limit = Math.max(1, options.concurrency ?? 1);
  const done = (async () => {
    const inFlight = new Set<Promise<void>>();
    for await (const message of messages) {
      // handleMessage never throws: it acks, naks or terms every message itself. It runs in the
      // trace of the change that wrote the event (the relay put its context in the headers).
      const task: Promise<void> = withMessageContext(message.headers, `consume ${bus.unprefix(message.subject)}`, () => handleMessage(message), {
        attributes: { 'messaging.system': 'nats', 'messaging.consumer.group.name': durable },
      }).finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= limit) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  })();

  async function handleMessage(message: JsMsg): Promise<void> {
    const subject = bus.unprefix(message.subject) as S;
    if (!options.subjects.includes(subject)) {
      message.ack();
      return;
    }
    let event: EventEnvelope;
    try {
      event = EventEnvelope.parse(message.json());
      event.data = EVENT_DATA[subject].parse(event.data);
    } catch (error) {
      log.error({ err: error, subject, durable }, 'dropping an event that does not match its schema');
      await recordDeadLetter(db, { consumer: durable, eventId: null, subject, deliveries: message.info.redeliveryCount, error: String(error), payload: { raw: message.string() } }).catch(
        () => undefined,
      );
      message.term();
      return;
    }
    try {
      await db.transaction(async (trx) => {
        const fresh = await trx('processed_events')
          .insert({ consumer: durable, event_id: event.id })
          .onConflict(['consumer', 'event_id'])
          .ignore()
          .returning('event_id');
        if (fresh.length === 0) return;
        await options.handle(event as Parameters<typeof options.handle>[0], trx);
      });
      message.ack();
    } catch (error) {
      const deliveries = message.info.redeliveryCount;
      if (deliveries >= maxDeliver) {
        log.error({ err: error, subject, durable, eventId: event.id, deliveries }, 'event handler failed for the last time; recorded as a dead letter');
        try {
          await recordDeadLetter(db, { consumer: durable, eventId: event.id, subject, deliveries, error: String((error as Error).message ?? error), payload: event });
          message.term();
        } catch {
          // The record could not be written (database away): try the event again later instead of losing it.
          message.nak(backoffDelay(backoffMs, deliveries));
        }
        return;
      }
      log.error({ err: error, subject, durable, eventId: event.id, deliveries }, 'event handler failed; will be redelivered');
      message.nak(backoffDelay(backoffMs, deliveries));
    }
  }

  return {
    async stop() {
      await messages.close();
      await done;
    },
  };
}
