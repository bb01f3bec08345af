import { randomUUID } from 'node:crypto';
import { EVENT_DATA, type EventDataMap, type EventEnvelope } from '@crewswap/proto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { afterCommit, type Db, type Executor, type Migration } from '../data/db';
import type { Bus } from './nats';
import { contextOf, currentTraceContext, inSpan, outsideTrace, SpanKind, traceHeaders } from '../observability/tracing';

/** Tables every service with events has: its outbox and the event ids its consumers have applied. */
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

/**
 * Publishes outbox rows in order, each with its event id as `Nats-Msg-Id` so JetStream drops a
 * repeat when a publish succeeded but marking it sent did not. Rows are locked with SKIP LOCKED,
 * so several replicas can relay side by side.
 */
export function startOutboxRelay(options: { db: Db; bus: Bus; log: Logger; intervalMs?: number }): OutboxRelay {
  const { db, bus, log } = options;
  const intervalMs = options.intervalMs ?? RELAY_POLL_MS;
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  async function relayBatch(): Promise<number> {
    return db.transaction(async (trx) => {
      const rows: { id: string; subject: string; envelope: unknown; trace_context: Record<string, string> | null }[] = await trx('outbox')
        .select('id', 'subject', 'envelope', 'trace_context')
        .whereNull('published_at')
        .orderBy('seq')
        .limit(100)
        .forUpdate()
        .skipLocked();
      // Published together and awaited together: nats.js sends publishes made in one tick in one
      // write, where one at a time cost a socket write and a wait for each acknowledgement. They are
      // sent in order on one connection, so JetStream stores them in order; a failed publish rolls
      // the marks back and the batch goes again (repeats dropped by their Nats-Msg-Id).
      const published = rows.map((row) =>
        // The publish joins the trace of the change that wrote the event, and passes it on.
        inSpan(
          `publish ${row.subject}`,
          async () => {
            const h = traceHeaders();
            h.set('Nats-Msg-Id', row.id);
            await bus.js.publish(bus.subject(row.subject), JSON.stringify(row.envelope), { headers: h, timeout: 2000 });
          },
          { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': row.subject, 'messaging.message.id': row.id } },
          contextOf(row.trace_context),
        ),
      );
      await Promise.all(published);
      // One statement marks the batch: a publish that failed above rolls it all back, and the
      // rows already published are sent again and dropped by JetStream as repeats (Nats-Msg-Id).
      if (rows.length > 0) await trx('outbox').whereIn('id', rows.map((row) => row.id)).update({ published_at: trx.fn.now() });
      return rows.length;
    });
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      try {
        while (!stopped && (await relayBatch()) === 100);
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

  // Commits that land close together are relayed together: a relay is a transaction of its own
  // (select, publish, mark, commit), and one per committed change doubled the database work of
  // every write. KICK_DELAY_MS is far below what a reader of the events notices.
  let kicked: NodeJS.Timeout | undefined;
  const kick = (): void => {
    if (kicked || stopped) return;
    kicked = setTimeout(() => {
      kicked = undefined;
      run();
    }, KICK_DELAY_MS);
  };

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
