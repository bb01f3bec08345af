import { OutboxPendingReply, OutboxPendingRequest, outboxPendingSubject } from '@crewswap/proto';
import type { Subscription } from 'nats';
import type { Logger } from 'pino';
import type { Db } from '../data/db';
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
 * How many events on `subjects` `service`'s outbox still holds unpublished. Rejects when nobody
 * answers (NATS' 503: no such service running) or the answer is not a count: callers differ on
 * what silence means (the session guards allow a service time to come back).
 */
export async function requestOutboxPending(bus: Bus, service: string, subjects: readonly string[], timeoutMs: number): Promise<number> {
  const reply = await bus.nc.request(bus.subject(outboxPendingSubject(service)), JSON.stringify({ subjects }), { timeout: timeoutMs });
  const parsed = OutboxPendingReply.safeParse(reply.json());
  if (!parsed.success) throw new Error(`${service} could not count its unpublished events`);
  return parsed.data.pending;
}

/** requestOutboxPending, undefined when nobody answers in time (the service not running, NATS away): then nobody can say. */
export async function askOutboxPending(bus: Bus, service: string, subjects: readonly string[], timeoutMs = 1000): Promise<number | undefined> {
  return requestOutboxPending(bus, service, subjects, timeoutMs).catch(() => undefined);
}
