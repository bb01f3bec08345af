import type { DirectChannel } from '@crewswap/proto';
import type { Msg } from 'nats';
import type { Logger } from 'pino';
import type { Bus } from './nats';
import { inSpanNow, SpanKind, traceHeaders, withMessageContext } from '../observability/tracing';
import { eventSchema, type EventOf, type Subject } from './pull';

/**
 * Publishes a direct message: core NATS, not stored, heard by whoever listens now (a pilot's open
 * apps through realtime, session activity). The message is checked against the channel's schema
 * first, so a bad one throws here and never reaches a reader, and it carries the current trace.
 * Throws when NATS refuses it (the connection closed): a caller for whom it is best effort catches.
 */
export function publishDirect<T>(bus: Bus, channel: DirectChannel<T>, message: T): void {
  const data = JSON.stringify(channel.schema.parse(message));
  inSpanNow(`publish ${channel.name}`, () => bus.nc.publish(bus.subject(channel.subject), data, { headers: traceHeaders() }), {
    kind: SpanKind.PRODUCER,
    attributes: { 'messaging.system': 'nats', 'messaging.destination.name': channel.name },
  });
}

export interface DirectOptions<T> {
  bus: Bus;
  log: Logger;
  /** Wildcards allowed (`DIRECT.realtimePilot('*')`). */
  channel: DirectChannel<T>;
  /** A queue group: replicas share it, so each message reaches one of them. Without it every replica hears every message. */
  queue?: string;
  /** Called with each message that matches the schema and the subject it came on (unprefixed); a throw is logged. */
  handle(message: T, subject: string): unknown;
  /** Called, after the log line, for a message that does not match the schema. */
  unreadable?(subject: string): void;
}

/**
 * Listens on a core-NATS channel from now on: each message is checked against the channel's
 * schema (one that does not match is logged and skipped) and handled in a span that continues
 * the publisher's trace.
 */
export function subscribeDirect<T>(options: DirectOptions<T>): { stop(): void } {
  const { bus, log, channel } = options;
  const subscription = bus.nc.subscribe(bus.subject(channel.subject), {
    ...(options.queue ? { queue: options.queue } : {}),
    callback: (error, message) => {
      if (error) {
        log.warn({ err: error, subject: channel.name }, 'a direct subscription failed');
        return;
      }
      void withMessageContext(message.headers, `receive ${channel.name}`, () => handleDirect(message), {
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': channel.name },
      });
    },
  });

  async function handleDirect(message: Msg): Promise<void> {
    const subject = bus.unprefix(message.subject);
    const parsed = channel.schema.safeParse(readJson(message));
    if (!parsed.success) {
      log.warn({ subject, problem: parsed.error.issues[0]?.message }, `ignoring a message on ${channel.name} that does not match its schema`);
      options.unreadable?.(subject);
      return;
    }
    try {
      await options.handle(parsed.data, subject);
    } catch (failure) {
      log.warn({ err: failure, subject }, `a message on ${channel.name} could not be handled`);
    }
  }

  return { stop: () => subscription.unsubscribe() };
}

/**
 * The events of one stored subject as a direct channel: heard on core NATS as they are published,
 * with no consumer and nothing replayed (a reader that needs what it missed follows the stream).
 * The settings client drops its cache this way.
 */
export function eventChannel<S extends Subject>(subject: S): DirectChannel<EventOf<S>> {
  return { subject, name: subject, schema: eventSchema(subject) };
}

function readJson(message: Msg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
