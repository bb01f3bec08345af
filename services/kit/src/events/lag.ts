import type { StreamName } from '@crewswap/proto';
import type { Bus } from './nats';

export interface ConsumerLag {
  /** In the stream, not yet delivered to the consumer. */
  pending: number;
  /** Delivered, not yet acknowledged. */
  ackPending: number;
  /** When the stream stored the oldest message not yet acknowledged (ms); only when asked for, and when there is one that can be read. */
  oldestAt?: number;
}

/**
 * How far a durable consumer trails its stream: the one place consumer lag is read (the kit's
 * /metrics gauges, swaps' read-model lag and its catch-up waits). Undefined when the consumer
 * cannot be asked (not made yet, NATS away).
 */
export async function consumerLag(bus: Bus, stream: StreamName, durable: string, options: { oldest?: boolean } = {}): Promise<ConsumerLag | undefined> {
  const info = await bus.jsm.consumers.info(bus.stream(stream), durable).catch(() => undefined);
  if (!info) return undefined;
  const lag: ConsumerLag = { pending: info.num_pending, ackPending: info.num_ack_pending };
  if (!options.oldest || lag.pending + lag.ackPending === 0) return lag;
  const oldest = await bus.jsm.streams
    .getMessage(bus.stream(stream), { seq: info.ack_floor.stream_seq + 1 })
    .then((message) => message.time.getTime())
    .catch(() => undefined);
  return oldest === undefined ? lag : { ...lag, oldestAt: oldest };
}
