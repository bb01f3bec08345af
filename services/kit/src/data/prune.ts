import type { Logger } from 'pino';
import type { Db } from './db';
import { IDEMPOTENCY_KEEP_HOURS } from '../http/idempotency';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long the kit's bookkeeping rows are kept (docs/DECISIONS.md, "Growing tables").
 * - processed_events: an event comes again only while unacked (ack wait, seconds to a minute) or
 *   when a durable consumer is re-created from the start of its stream; 30 days covers the first
 *   by far, and a re-created consumer applies events by version anyway.
 * - published outbox rows: nothing reads them after publishing except people investigating;
 *   JetStream's duplicate window (10 minutes) is the only thing that needs the id.
 * - idempotency keys: a change sent again is answered from its key for IDEMPOTENCY_KEEP_HOURS.
 */
export const KIT_RETENTION_DAYS = { processedEvents: 30, publishedOutbox: 7 } as const;


/** Deletes at most this many rows per statement, so a large backlog never holds long locks. */
const BATCH = 5_000;

/** Deletes `table` rows matching `where` in batches; answers how many went. */
export async function deleteInBatches(db: Db, table: string, where: string, bindings: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = (await db.raw(`DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${where} LIMIT ${BATCH})`, bindings as never[])) as {
      rowCount: number;
    };
    total += rowCount;
    if (rowCount < BATCH) return total;
  }
}

export async function pruneKitTables(db: Db, now: Date): Promise<{ processedEvents: number; outbox: number; idempotencyKeys: number }> {
  const processedBefore = new Date(now.getTime() - KIT_RETENTION_DAYS.processedEvents * DAY_MS);
  const publishedBefore = new Date(now.getTime() - KIT_RETENTION_DAYS.publishedOutbox * DAY_MS);
  return {
    processedEvents: await deleteInBatches(db, 'processed_events', 'processed_at < ?', [processedBefore]),
    outbox: await deleteInBatches(db, 'outbox', 'published_at < ?', [publishedBefore]),
    idempotencyKeys: await deleteInBatches(db, 'idempotency_keys', 'created_at < ?', [new Date(now.getTime() - IDEMPOTENCY_KEEP_HOURS * 60 * 60 * 1000)]),
  };
}

/**
 * Runs `task` now and then every `intervalMs` (never two at once). Replicas each run it: the
 * deletes are idempotent, so no coordination is needed.
 */
export function startPeriodic(options: { name: string; log: Logger; intervalMs: number; task: () => Promise<unknown> }): { stop(): Promise<void> } {
  const { log } = options;
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    // A task that throws before its first await fails like one that rejects: never out of the timer.
    running = Promise.resolve()
      .then(options.task)
      .then((result) => log.debug({ task: options.name, result }, 'periodic task done'))
      .catch((error: unknown) => log.warn({ err: error, task: options.name }, 'periodic task failed; will retry'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  // First run a little after start, not in the middle of start-up.
  const first = setTimeout(tick, Math.min(options.intervalMs, 60_000));
  first.unref();
  return {
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}

/** Prunes the kit's tables hourly. */
export function startKitPruner(options: { db: Db; log: Logger; intervalMs?: number }): { stop(): Promise<void> } {
  return startPeriodic({ name: 'prune kit tables', log: options.log, intervalMs: options.intervalMs ?? 60 * 60 * 1000, task: () => pruneKitTables(options.db, new Date()) });
}
