import { randomUUID } from 'node:crypto';
import { EVENT_DATA, type EventDataMap, type EventEnvelope } from '@crewswap/proto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { afterCommit, type Db, type Executor, type Migration } from '../data/db';
import type { Bus } from './nats';
import { idempotencyMigrations } from '../http/idempotency';
import { contextOf, currentTraceContext, inSpan, outsideTrace, SpanKind, traceHeaders } from '../observability/tracing';

/** Tables every service with events has: its outbox, the event ids its consumers have applied, and the idempotency keys of its routes. */
export const kitMigrations: Record<string, Migration> = {
  '0000_kit_outbox': {
    async up(knex: Knex) {
      await knex.schema.createTable('outbox', (table) => {
        table.bigIncrements('seq');
        table.uuid('id').notNullable().unique();
        table.string('subject', 200).notNullable();
        table.jsonb('envelope').notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.timestamp('published_at', { useTz: true });
      });
      await knex.raw('CREATE INDEX outbox_unpublished ON outbox (seq) WHERE published_at IS NULL');
      await knex.schema.createTable('processed_events', (table) => {
        table.string('consumer', 100).notNullable();
        table.uuid('event_id').notNullable();
        table.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.primary(['consumer', 'event_id']);
      });
    },
  },
  '0001_kit_dead_letters': {
    async up(knex: Knex) {
      // Events a consumer gave up on after its last delivery: kept for a person to look at and replay.
      await knex.schema.createTable('dead_letters', (table) => {
        table.bigIncrements('seq');
        table.string('consumer', 100).notNullable();
        table.uuid('event_id');
        table.string('subject', 200).notNullable();
        table.integer('deliveries').notNullable();
        table.text('error').notNullable();
        table.jsonb('payload');
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.unique(['consumer', 'event_id']);
      });
    },
  },
  '0002_kit_outbox_trace_context': {
    async up(knex: Knex) {
      // The W3C trace context of the change that wrote the event: the relay publishes the event
      // later, from a loop of its own, and its consumers continue the writer's trace from this.
      await knex.schema.alterTable('outbox', (table) => {
        table.jsonb('trace_context');
      });
    },
  },
  ...idempotencyMigrations,
  '0004_kit_outbox_relay_lease': {
    async up(knex: Knex) {
      // Which relay publishes this schema's outbox now (issue 58): one at a time, so that events go
      // out in order, while no relay holds a connection as it waits for JetStream's acknowledgements.
      await knex.schema.createTable('outbox_relay', (table) => {
        table.smallint('id').primary();
        table.uuid('holder');
        table.timestamp('until', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex('outbox_relay').insert({ id: 1 });
    },
  },
};

export type Subject = keyof EventDataMap;

export interface Outbox {
  /**
   * Records an event in the same transaction as the change it describes; it is published after
   * the transaction commits, even if NATS is down now.
   */
  write<S extends Subject>(trx: Executor, subject: S, data: EventDataMap[S], version?: number): Promise<EventEnvelope<EventDataMap[S]>>;
  /** Several events of one subject in one statement (a roster import creates a trip per row). */
  writeMany<S extends Subject>(trx: Executor, subject: S, items: { data: EventDataMap[S]; version?: number }[]): Promise<EventEnvelope<EventDataMap[S]>[]>;
  /**
   * Outbox rows for a caller that inserts them itself, in the same statement as its change (one
   * round trip fewer on a hot path); `written` then has them published soon after the commit.
   */
  rows<S extends Subject>(subject: S, items: { data: EventDataMap[S]; version?: number }[]): OutboxRow[];
  written(trx: Executor): void;
}

/** One row of the outbox table, as `rows` prepares it. */
export interface OutboxRow {
  id: string;
  subject: string;
  envelope: string;
  /** JSON of the writer's trace context (`traceparent`, `tracestate`), or null outside a trace. */
  trace_context: string | null;
}

export interface OutboxRelay {
  /** Publishes what is waiting within moments instead of at the next poll. */
  kick(): void;
  stop(): Promise<void>;
}

export function createOutbox(relay?: Pick<OutboxRelay, 'kick'>): Outbox {
  const prepare = <S extends Subject>(subject: S, items: { data: EventDataMap[S]; version?: number }[]) => {
    const occurredAt = new Date().toISOString();
    const traced = currentTraceContext();
    const trace_context = traced && JSON.stringify(traced);
    return items.map(({ data, version = 1 }) => {
      const envelope: EventEnvelope<EventDataMap[S]> = { id: randomUUID(), type: subject, occurredAt, version, data: EVENT_DATA[subject].parse(data) as EventDataMap[S] };
      return { envelope, row: { id: envelope.id, subject, envelope: JSON.stringify(envelope), trace_context } };
    });
  };
  const rows: Outbox['rows'] = (subject, items) => prepare(subject, items).map(({ row }) => row);
  const written: Outbox['written'] = (trx) => {
    if (relay) afterCommit(trx, () => relay.kick());
  };
  const writeMany: Outbox['writeMany'] = async (trx, subject, items) => {
    if (items.length === 0) return [];
    const prepared = prepare(subject, items);
    // One multi-row INSERT assigns the serial seq in the items' order, so they publish in order.
    await trx('outbox').insert(prepared.map(({ row }) => row));
    written(trx);
    return prepared.map(({ envelope }) => envelope);
  };
  return {
    async write(trx, subject, data, version = 1) {
      const [envelope] = await writeMany(trx, subject, [{ data, version }]);
      return envelope!;
    },
    writeMany,
    rows,
    written,
  };
}

/**
 * How often a relay looks for rows without being kicked: a commit kicks its own process's relay,
 * so the poll only catches what a kick missed (rows left by a replica that stopped, a publish that
 * failed while NATS was away). Polling every 250 ms was three statements four times a second in
 * every process, most of what an idle stack spent.
 */
const RELAY_POLL_MS = 1000;

/** How long a relay waits after a commit for others to join it. */
const KICK_DELAY_MS = 20;

/** Rows a relay takes at once. */
const BATCH = 100;

/**
 * How long a relay's turn lasts without word from it: far above a publish's timeout (2 s), so that
 * a relay's publishes have all ended, acknowledged or failed, before another relay may take over
 * from one that stopped in the middle of a batch.
 */
const LEASE_SECONDS = 30;

/** How soon a relay that found another one publishing looks again: its own rows may come after that batch. */
const BUSY_RETRY_MS = 100;

type PendingRow = { id: string; subject: string; envelope: string; trace_context: Record<string, string> | null };

/**
 * A batch of unpublished rows in order, and the schema's relay lease with it (only while rows wait):
 * `held` false with `pending` true means another relay is publishing now. SKIP LOCKED: a relay never
 * waits here for another's statement. The envelope comes as the stored JSON text, published as it is.
 */
const TAKE_BATCH_SQL = `
  WITH pending AS (SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT 1),
  lease AS (
    UPDATE outbox_relay SET holder = :me, until = now() + make_interval(secs => :lease)
     WHERE id IN (SELECT id FROM outbox_relay
                   WHERE id = 1 AND (holder IS NULL OR holder = :me OR until < now()) AND EXISTS (SELECT 1 FROM pending)
                     FOR UPDATE SKIP LOCKED)
    RETURNING id)
  SELECT EXISTS (SELECT 1 FROM pending) AS pending,
         EXISTS (SELECT 1 FROM lease) AS held,
         (SELECT json_agg(batch ORDER BY batch.seq)
            FROM (SELECT seq, id, subject, CAST(envelope AS text) AS envelope, trace_context FROM outbox
                   WHERE published_at IS NULL AND EXISTS (SELECT 1 FROM lease)
                   ORDER BY seq LIMIT :limit) batch) AS batch`;

/** Marks the acknowledged rows sent and gives the lease back, in one statement. */
const MARK_SENT_SQL = `
  WITH sent AS (UPDATE outbox SET published_at = now() WHERE id = ANY(CAST(:ids AS uuid[])))
  UPDATE outbox_relay SET holder = NULL WHERE id = 1 AND holder = :me`;

/**
 * Publishes outbox rows in order, each with its event id as `Nats-Msg-Id` so that JetStream drops
 * a repeat. A turn takes a batch and the schema's relay lease in one statement (one relay at a
 * time, so replicas never publish side by side out of order), publishes it holding no connection
 * while it waits for JetStream (issue 58: a transaction held one through every acknowledgement),
 * then marks it sent and gives the lease back in one statement. When a publish fails, only the
 * rows before it are marked: the next turn starts again at the failed one, and a later row
 * JetStream had already stored is a repeat it drops.
 */
export function startOutboxRelay(options: { db: Db; bus: Bus; log: Logger; intervalMs?: number }): OutboxRelay {
  const { db, bus, log } = options;
  const intervalMs = options.intervalMs ?? RELAY_POLL_MS;
  const me = randomUUID();
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let kicked: NodeJS.Timeout | undefined;

  const publish = (row: PendingRow): Promise<void> =>
    // The publish joins the trace of the change that wrote the event, and passes it on.
    inSpan(
      `publish ${row.subject}`,
      async () => {
        const h = traceHeaders();
        h.set('Nats-Msg-Id', row.id);
        await bus.js.publish(bus.subject(row.subject), row.envelope, { headers: h, timeout: 2000 });
      },
      { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': row.subject, 'messaging.message.id': row.id } },
      contextOf(row.trace_context),
    );

  /** One turn: the rows relayed, or 'busy' when another relay has the lease. */
  async function relayBatch(): Promise<number | 'busy'> {
    const taken = await db.raw<{ rows: { pending: boolean; held: boolean; batch: PendingRow[] | null }[] }>(TAKE_BATCH_SQL, { me, lease: LEASE_SECONDS, limit: BATCH });
    const { pending, held, batch } = taken.rows[0]!;
    if (!held) return pending ? 'busy' : 0;
    const rows = batch ?? [];
    // Published together: nats.js sends publishes made in one tick in one write, in order on one
    // connection, so JetStream stores them in order; the acknowledgements are awaited together.
    const outcomes = await Promise.allSettled(rows.map(publish));
    const failed = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    const acknowledged = failed === -1 ? rows : rows.slice(0, failed);
    await db.raw(MARK_SENT_SQL, { ids: acknowledged.map((row) => row.id), me });
    if (failed !== -1) throw (outcomes[failed] as PromiseRejectedResult).reason;
    return rows.length;
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      try {
        for (;;) {
          if (stopped) return;
          const relayed = await relayBatch();
          if (relayed === 'busy') return retry(BUSY_RETRY_MS);
          if (relayed < BATCH) break;
        }
      } catch (error) {
        log.warn({ err: error }, 'outbox relay could not publish; will retry');
        return;
      }
    } while (again && !stopped);
  }

  /** One drain at a time; a kick during a drain makes it go round once more. */
  function run(): void {
    if (stopped) return;
    if (inFlight) {
      again = true;
      return;
    }
    // A kick comes from a committed change's context; the relay's own work is in no one's trace.
    inFlight = outsideTrace(drain).finally(() => {
      inFlight = undefined;
    });
  }

  const loop = (): void => {
    if (stopped) return;
    run();
    timer = setTimeout(loop, intervalMs);
  };
  loop();

  // Commits that land close together are relayed together: a turn is statements of its own (take,
  // publish, mark), and one per committed change doubled the database work of every write.
  // KICK_DELAY_MS is far below what a reader of the events notices.
  function retry(delayMs: number): void {
    if (kicked || stopped) return;
    kicked = setTimeout(() => {
      kicked = undefined;
      run();
    }, delayMs);
  }
  const kick = (): void => retry(KICK_DELAY_MS);

  return {
    kick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(kicked);
      await inFlight;
    },
  };
}
