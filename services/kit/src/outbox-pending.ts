import { OutboxPendingReply, OutboxPendingRequest, outboxPendingSubject } from '@crewswap/proto';
import type { Subscription } from 'nats';
import type { Logger } from 'pino';
import type { Db } from './db';
import type { Bus } from './nats';
import { serveRpc } from './rpc';

/** How many events on `subjects` this service's outbox holds unpublished. */
export async function countUnpublished(db: Db, subjects: readonly string[]): Promise<number> {
  const row = await db('outbox').whereNull('published_at').whereIn('subject', subjects).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Answers on this service's `outboxPendingSubject` how many events on the asked subjects its outbox still holds unpublished. */
export function serveOutboxPending(options: { bus: Bus; db: Db; log: Logger; service: string }): Subscription {
  return serveRpc({
    bus: options.bus,
    log: options.log,
    subject: outboxPendingSubject(options.service),
    request: OutboxPendingRequest,
    handle: async ({ subjects }) => OutboxPendingReply.parse({ pending: await countUnpublished(options.db, subjects) }),
  });
}

/**
 * How many events on `subjects` `service`'s outbox still holds unpublished; undefined when nobody
 * answers in time (the service not running, NATS away): then nobody can say.
 */
export async function askOutboxPending(bus: Bus, service: string, subjects: readonly string[], timeoutMs = 1000): Promise<number | undefined> {
  try {
    const reply = await bus.nc.request(bus.subject(outboxPendingSubject(service)), JSON.stringify({ subjects }), { timeout: timeoutMs });
    const parsed = OutboxPendingReply.safeParse(reply.json());
    return parsed.success ? parsed.data.pending : undefined;
  } catch {
    return undefined;
  }
}
