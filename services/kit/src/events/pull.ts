import { EVENT_DATA, EventEnvelope, type EventDataMap, type StreamName } from '@crewswap/proto';
import { AckPolicy, DeliverPolicy, type JsMsg } from 'nats';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../data/db';
import type { Bus } from './nats';
import type { Subject } from './outbox';
import { noteConsumer } from '../observability/runtime-metrics';
import { withMessageContext } from '../observability/tracing';

export type { Subject };
/** One event of the subjects `S`, its data validated, narrowed by `type`. */
export type EventOf<S extends Subject> = { [K in S]: EventEnvelope<EventDataMap[K]> & { type: K } }[S];

const eventSchemas = new Map<Subject, z.ZodType>();

/** The schema of an event of `subject`: the envelope, its data the subject's `proto` schema. */
export function eventSchema<S extends Subject>(subject: S): z.ZodType<EventOf<S>> {
  let schema = eventSchemas.get(subject);
  if (!schema) eventSchemas.set(subject, (schema = EventEnvelope.extend({ data: EVENT_DATA[subject] as z.ZodType })));
  return schema as z.ZodType<EventOf<S>>;
}

/** An event of `subject` from a message's JSON: the one check every reader of the toolkit makes. Throws when it does not match. */
export function parseEvent<S extends Subject>(subject: S, json: unknown): EventOf<S> {
  return eventSchema(subject).parse(json);
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

/** What the durable consumer and the work queue have in common. */
export interface PulledOptions<S extends Subject> {
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
  /** Events handled at once. */
  concurrency?: number;
  /** Deliveries before an event is given up on and recorded in `dead_letters` (default 10). */
  maxDeliver?: number;
  /** Delay before each redelivery after a failure, by attempt; the last repeats (default 1 s, 5 s, 30 s, 2 min, 5 min). */
  backoffMs?: readonly number[];
}

/**
 * Reads an event of one of `subjects`, or undefined when the message is dealt with here: another
 * subject under the filter is acked unread; an event that is not valid JSON or does not match its
 * schema is recorded as a dead letter and terminated, since retrying it could never succeed.
 * Synchronous, so handlers start in the order messages arrive.
 */
export function readEvent<S extends Subject>(options: PulledOptions<S>, message: JsMsg): EventOf<S> | undefined {
  const subject = options.bus.unprefix(message.subject) as S;
  if (!options.subjects.includes(subject)) {
    message.ack();
    return undefined;
  }
  try {
    return parseEvent(subject, message.json());
  } catch (error) {
    options.log.error({ err: error, subject, durable: options.durable }, 'dropping an event that does not match its schema');
    const entry = { consumer: options.durable, eventId: null, subject, deliveries: message.info.redeliveryCount, error: String(error), payload: { raw: message.string() } };
    void recordDeadLetter(options.db, entry)
      .catch(() => undefined)
      .finally(() => message.term());
    return undefined;
  }
}

/**
 * After a failed delivery: redelivered after a growing delay, or, at `maxDeliver`, recorded in
 * `dead_letters` and terminated, so one poisoned event cannot hold a consumer for ever.
 */
export async function retryOrGiveUp<S extends Subject>(options: PulledOptions<S>, message: JsMsg, event: EventOf<S>, error: unknown): Promise<void> {
  const { log, durable } = options;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const deliveries = message.info.redeliveryCount;
  const context = { err: error, subject: event.type, durable, eventId: event.id, deliveries };
  if (deliveries < (options.maxDeliver ?? DEFAULT_MAX_DELIVER)) {
    log.error(context, 'event handler failed; will be redelivered');
    message.nak(backoffDelay(backoffMs, deliveries));
    return;
  }
  log.error(context, 'event handler failed for the last time; recorded as a dead letter');
  try {
    await recordDeadLetter(options.db, { consumer: durable, eventId: event.id, subject: event.type, deliveries, error: String((error as Error).message ?? error), payload: event });
    message.term();
  } catch {
    // The record could not be written (database away): try the event again later instead of losing it.
    message.nak(backoffDelay(backoffMs, deliveries));
  }
}

/**
 * Creates (or re-filters) the durable pull consumer and feeds its messages to `handle`, at most
 * `concurrency` at once. `handle` must never throw: it acks, naks or terms every message itself.
 */
export async function pullDurable<S extends Subject>(options: PulledOptions<S>, handle: (message: JsMsg) => Promise<void>): Promise<RunningConsumer> {
  const { bus, durable } = options;
  const limit = Math.max(1, options.concurrency ?? 1);
  const stream = bus.stream(options.stream);
  const filterSubject = bus.subject(options.filter);
  const maxAckPending = Math.max(100, limit * 4);
  try {
    await bus.jsm.consumers.info(stream, durable);
    await bus.jsm.consumers.update(stream, durable, { filter_subject: filterSubject, max_ack_pending: maxAckPending });
  } catch {
    await bus.jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: filterSubject,
      ack_wait: (options.ackWaitMs ?? 30_000) * 1_000_000,
      max_ack_pending: maxAckPending,
    });
  }
  noteConsumer(bus, options.stream, durable);
  const consumer = await bus.js.consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: Math.max(limit, 50) });

  const done = (async () => {
    const inFlight = new Set<Promise<void>>();
    for await (const message of messages) {
      // Each event is handled in the trace of the change that wrote it (the outbox relay put its
      // context in the headers).
      const task: Promise<void> = withMessageContext(message.headers, `consume ${options.bus.unprefix(message.subject)}`, () => handle(message), {
        attributes: { 'messaging.system': 'nats', 'messaging.consumer.group.name': durable },
      })
        .catch((error: unknown) => options.log.error({ err: error, durable }, 'an event could not be handled'))
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= limit) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  })();

  return {
    async stop() {
      await messages.close();
      await done;
    },
  };
}
