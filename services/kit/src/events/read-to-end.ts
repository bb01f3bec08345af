import type { StreamName } from '@crewswap/proto';
import { randomBytes } from 'node:crypto';
import { AckPolicy, DeliverPolicy, type MsgHdrs } from 'nats';
import type { Bus } from './nats';
import { inSpan, messageLinks } from '../observability/tracing';
import { parseEvent, type EventOf, type Subject } from './pull';

export interface ReadToEndOptions<S extends Subject> {
  bus: Bus;
  stream: StreamName;
  /** One subject filter (wildcards allowed); events under it not in `subjects` are skipped. */
  filter: string;
  subjects: readonly S[];
  /** Events per batch (default 500). */
  batchSize?: number;
  /** Called with each batch, in stream order; a throw ends the read. */
  handle(events: EventOf<S>[]): Promise<unknown>;
}

/**
 * A bounded read: every event under `filter` that the stream holds now, in order, in batches,
 * through a consumer of its own that is removed afterwards (swaps' rebuild). Not a consumer
 * (nothing acked or remembered) and not a follower (it ends). An event that does not match its
 * schema is counted and skipped. Each batch is handled in a span under the caller's, linked to
 * the trace of every event in it.
 */
export async function readStreamToEnd<S extends Subject>(options: ReadToEndOptions<S>): Promise<{ read: number; unreadable: number }> {
  const { bus } = options;
  const stream = bus.stream(options.stream);
  const name = `read_to_end_${randomBytes(6).toString('hex')}`;
  const info = await bus.jsm.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: bus.subject(options.filter),
    inactive_threshold: 60_000_000_000,
    mem_storage: true,
  });
  let remaining = info.num_pending;
  let read = 0;
  let unreadable = 0;
  try {
    const consumer = await bus.js.consumers.get(stream, name);
    while (remaining > 0) {
      const batch = await consumer.fetch({ max_messages: Math.min(options.batchSize ?? 500, remaining), expires: 5000 });
      const events: EventOf<S>[] = [];
      const headers: (MsgHdrs | undefined)[] = [];
      let received = 0;
      for await (const message of batch) {
        received += 1;
        const subject = bus.unprefix(message.subject) as S;
        if (!options.subjects.includes(subject)) continue;
        try {
          events.push(parseEvent(subject, message.json()));
          headers.push(message.headers);
        } catch {
          unreadable += 1;
        }
      }
      if (received === 0) throw new Error(`${options.stream} stopped delivering with ${remaining} events still to read`);
      remaining -= received;
      read += events.length;
      await inSpan(`read ${options.filter}`, () => options.handle(events), {
        attributes: { 'messaging.system': 'nats', 'messaging.batch.message_count': events.length },
        links: messageLinks(headers),
      });
    }
  } finally {
    await bus.jsm.consumers.delete(stream, name).catch(() => undefined);
  }
  return { read, unreadable };
}
