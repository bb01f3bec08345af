import { askOutboxPending, consumerLag, type Bus } from '@crewswap/kit';
import type { StreamName } from '@crewswap/proto';

/**
 * Waits until a durable consumer has applied everything its stream holds for it, or the time is
 * up: a read that must see a change published a moment ago waits for it instead of missing it.
 */
export async function waitUntilCaughtUp(bus: Bus, stream: StreamName, durable: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // No consumer to ask (not made yet, NATS away): nothing to wait for here.
    if (((await pendingFor(bus, stream, durable)) ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What the stream holds for the consumer that it has not applied yet; undefined when it cannot be asked. */
async function pendingFor(bus: Bus, stream: StreamName, durable: string): Promise<number | undefined> {
  const lag = await consumerLag(bus, stream, durable);
  return lag && lag.pending + lag.ackPending;
}

/** A feed of events to swaps: the service whose outbox writes them, on which subjects, and the consumer that applies them. */
export interface Feed {
  service: string;
  subjects: readonly string[];
  stream: StreamName;
  durable: string;
}

/**
 * Whether nothing on these feeds is still on its way: each writer's outbox holds none of them
 * unpublished (asked first: what it has published is then on the stream), and each consumer has
 * applied all its stream holds for it. A writer that does not answer might hold some: false.
 */
export async function nothingOnItsWay(bus: Bus, feeds: readonly Feed[]): Promise<boolean> {
  const held = await Promise.all(feeds.map((feed) => askOutboxPending(bus, feed.service, feed.subjects)));
  if (held.some((count) => count !== 0)) return false;
  const unapplied = await Promise.all(feeds.map((feed) => pendingFor(bus, feed.stream, feed.durable)));
  return unapplied.every((count) => count === 0);
}

/**
 * Reads until `found` holds of the answer or the time is up, and answers the last read: a change
 * committed a moment ago may still wait in its writer's outbox, where the stream (and so
 * waitUntilCaughtUp) cannot see it yet. With `settled`, it stops sooner once that says nothing
 * is on its way (read once more then: it may have arrived since): an id nobody has is answered
 * at once, not after the whole wait.
 */
export async function readUntil<T>(read: () => Promise<T>, found: (value: T) => boolean, timeoutMs: number, settled?: () => Promise<boolean>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!found(value) && Date.now() < deadline) {
    if (settled && (await settled())) return read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
