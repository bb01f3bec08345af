import type { StreamName } from '@crewswap/proto';
import { DeliverPolicy, type OrderedConsumerOptions } from 'nats';
import type { Logger } from 'pino';
import type { Bus } from './nats';
import { withMessageContext } from '../observability/tracing';
import { parseEvent, type EventOf, type Subject } from './pull';

export interface FollowOptions<S extends Subject> {
  bus: Bus;
  log: Logger;
  stream: StreamName;
  /**
   * One subject filter (wildcards allowed); events under it not in `subjects` are skipped.
   * Left out when `subjects` is one subject: that subject is the filter.
   */
  filter?: string;
  subjects: readonly S[];
  /**
   * Where to start: new events only (the default), from a stream sequence or a time, or the last
   * event of each subject (a state the stream holds as its latest events, such as the system's).
   */
  from?: { sequence: number } | { time: Date } | 'last-per-subject';
  /** Called in stream order, one event at a time; a throw is logged and the next event follows. */
  handle(event: EventOf<S>): void | Promise<void>;
}

export interface Follower {
  /** The stream sequence of the last message read (handled or skipped), 0 before any. */
  lastSequence(): number;
  stop(): Promise<void>;
}

/**
 * A follower: an ordered, ephemeral consumer of this process alone, so every replica of every
 * service reads every event (fan-out to its own connections, its own memory). Nothing is acked or
 * remembered; after a restart it starts again from `from`. An unreadable event is logged and
 * skipped: a follower's state is in memory and cannot wait for a fix.
 */
export async function follow<S extends Subject>(options: FollowOptions<S>): Promise<Follower> {
  const { bus, log } = options;
  const from = options.from;
  const start: Partial<OrderedConsumerOptions> = !from
    ? { deliver_policy: DeliverPolicy.New }
    : from === 'last-per-subject'
      ? { deliver_policy: DeliverPolicy.LastPerSubject }
      : 'sequence' in from
      ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from.sequence }
      : { deliver_policy: DeliverPolicy.StartTime, opt_start_time: from.time.toISOString() };
  const filter = options.filter ?? (options.subjects.length === 1 ? options.subjects[0]! : undefined);
  if (!filter) throw new Error(`following ${options.stream}: several subjects need a filter that covers them`);
  const consumer = await bus.js.consumers.get(bus.stream(options.stream), { filterSubjects: bus.subject(filter), ...start });
  const messages = await consumer.consume();
  let last = 0;

  async function handleFollowed(subject: S, message: { json(): unknown }): Promise<void> {
    try {
      await options.handle(parseEvent(subject, message.json()));
    } catch (error) {
      log.warn({ err: error, subject }, 'ignoring an event that could not be followed');
    }
  }

  const done = (async () => {
    for await (const message of messages) {
      const subject = bus.unprefix(message.subject) as S;
      if (options.subjects.includes(subject)) await withMessageContext(message.headers, `follow ${subject}`, () => handleFollowed(subject, message));
      last = Math.max(last, message.seq);
    }
  })();

  return {
    lastSequence: () => last,
    async stop() {
      await messages.close();
      await done;
    },
  };
}
