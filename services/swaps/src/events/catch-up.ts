import type { Bus } from '@crewswap/kit';
import type { StreamName } from '@crewswap/proto';

/**
 * Waits until a durable consumer has applied everything its stream holds for it, or the time is
 * up: a read that must see a change published a moment ago waits for it instead of missing it.
 */
export async function waitUntilCaughtUp(bus: Bus, stream: StreamName, durable: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const info = await bus.jsm.consumers.info(bus.stream(stream), durable).catch(() => undefined);
    if (!info || info.num_pending + info.num_ack_pending === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Reads until `found` holds of the answer or the time is up, and answers the last read: a change
 * committed a moment ago may still wait in its writer's outbox, where the stream (and so
 * waitUntilCaughtUp) cannot see it yet.
 */
export async function readUntil<T>(read: () => Promise<T>, found: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!found(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
