import { randomUUID } from 'node:crypto';
import { fromRow, type Db, type Executor, type OutboxRow } from '@crewswap/kit';
import type { RosterTripChange, RosterHistoryQuery, RosterHistoryRecord, RosterSource, RosterStats } from '@crewswap/proto';

export interface HistoryFields {
  pilotId: string | null;
  pilotName: string | null;
  employeeId: string | null;
  validationStage: string;
  success: boolean;
  sourceType: RosterSource;
  fileName: string | null;
  fileFormatReceived: string | null;
  attachmentCount: number;
  fileSizeBytes: number;
  senderEmail: string | null;
  totalEvents: number;
  tripsAdded: number;
  tripsChanged?: number;
  tripsRemoved?: number;
  changes?: RosterTripChange[];
  skippedEvents: number;
  duplicateEvents: number;
  conflictEvents: number;
  durationMs: number;
  processingStartTime: Date;
  processingEndTime: Date | null;
  ipAddress: string | null;
  userAgent: string | null;
  confirmationEmailSent: boolean;
  errorType: string | null;
  errorMessage: string | null;
  mailId?: string | null;
}

const COLUMNS: [keyof HistoryFields, string][] = [
  ['pilotId', 'pilot_id'],
  ['pilotName', 'pilot_name'],
  ['employeeId', 'employee_id'],
  ['validationStage', 'validation_stage'],
  ['success', 'success'],
  ['sourceType', 'source_type'],
  ['fileName', 'file_name'],
  ['fileFormatReceived', 'file_format_received'],
  ['attachmentCount', 'attachment_count'],
  ['fileSizeBytes', 'file_size_bytes'],
  ['senderEmail', 'sender_email'],
  ['totalEvents', 'total_events'],
  ['tripsAdded', 'trips_added'],
  ['tripsChanged', 'trips_changed'],
  ['tripsRemoved', 'trips_removed'],
  ['changes', 'changes'],
  ['skippedEvents', 'skipped_events'],
  ['duplicateEvents', 'duplicate_events'],
  ['conflictEvents', 'conflict_events'],
  ['durationMs', 'duration_ms'],
  ['processingStartTime', 'processing_start_time'],
  ['processingEndTime', 'processing_end_time'],
  ['ipAddress', 'ip_address'],
  ['userAgent', 'user_agent'],
  ['confirmationEmailSent', 'confirmation_email_sent'],
  ['errorType', 'error_type'],
  ['errorMessage', 'error_message'],
  ['mailId', 'mail_id'],
];

interface Row {
  id: string;
  pilot_id: string | null;
  pilot_name: string | null;
  employee_id: string | null;
  validation_stage: string;
  success: boolean;
  source_type: RosterSource;
  file_name: string | null;
  file_format_received: string | null;
  attachment_count: number;
  file_size_bytes: number;
  sender_email: string | null;
  total_events: number;
  trips_added: number;
  trips_changed: number;
  trips_removed: number;
  changes: RosterTripChange[] | null;
  skipped_events: number;
  duplicate_events: number;
  conflict_events: number;
  duration_ms: number;
  processing_start_time: Date;
  processing_end_time: Date | null;
  ip_address: string | null;
  user_agent: string | null;
  confirmation_email_sent: boolean;
  error_type: string | null;
  error_message: string | null;
  created_at: Date;
}

const toRecord = (row: Row): RosterHistoryRecord => ({
  ...fromRow(row, [
    'id',
    'pilot_id',
    'pilot_name',
    'employee_id',
    'validation_stage',
    'success',
    'source_type',
    'file_name',
    'file_format_received',
    'attachment_count',
    'file_size_bytes',
    'sender_email',
    'total_events',
    'trips_added',
    'trips_changed',
    'trips_removed',
    'skipped_events',
    'duplicate_events',
    'conflict_events',
    'duration_ms',
    'ip_address',
    'user_agent',
    'confirmation_email_sent',
    'error_type',
    'error_message',
  ]),
  // Left null where an import wrote none (a refused file, or one from before changes were kept).
  changes: row.changes ?? [],
  processingStartTime: row.processing_start_time.toISOString(),
  processingEndTime: row.processing_end_time?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

function rowOf(fields: HistoryFields): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of COLUMNS) if (fields[field] !== undefined) row[column] = fields[field];
  // pg would write an array as a Postgres array, not JSON.
  if (fields.changes) row.changes = JSON.stringify(fields.changes);
  return row;
}

const RANGE_DAYS = { today: 0, '7days': 7, '30days': 30 } as const;

export function createHistoryRepository(db: Db) {
  return {
    async insert(fields: HistoryFields, trx: Executor = db): Promise<RosterHistoryRecord> {
      const [stored] = (await trx('roster_history').insert(rowOf(fields)).returning('*')) as Row[];
      return toRecord(stored!);
    },

    /**
     * Inserts a record and the outbox rows that tell of it (made from its id) in one statement:
     * one round trip where two were, on every import's way to its answer.
     */
    async insertWithEvents(fields: HistoryFields, events: (id: string) => OutboxRow[], trx: Executor = db): Promise<void> {
      const id = randomUUID();
      const row = { id, ...rowOf(fields) };
      const columns = Object.keys(row);
      await trx.raw(
        `WITH record AS (
           INSERT INTO roster_history (${columns.map(() => '??').join(', ')})
           VALUES (${columns.map(() => '?').join(', ')})
           RETURNING id)
         INSERT INTO outbox (id, subject, envelope, trace_context)
         SELECT event.id, event.subject, event.envelope::jsonb, event.trace_context::jsonb
           FROM record, ROWS FROM (jsonb_to_recordset(?::jsonb) AS (id uuid, subject text, envelope text, trace_context text)) WITH ORDINALITY AS event(id, subject, envelope, trace_context, n)
          ORDER BY event.n`,
        // The events' serial seq follows their order.
        [...columns, ...Object.values(row), JSON.stringify(events(id))],
      );
    },

    async findByMail(mailId: string, trx: Executor = db): Promise<RosterHistoryRecord | undefined> {
      const row = (await trx('roster_history').where({ mail_id: mailId }).first()) as Row | undefined;
      return row && toRecord(row);
    },

    /** `today` is the Europe/London date; ranges count back whole London days from it. */
    async list(query: RosterHistoryQuery, today: string): Promise<{ records: RosterHistoryRecord[]; total: number }> {
      const base = db('roster_history');
      if (query.source) base.where({ source_type: query.source });
      if (query.status) base.where({ success: query.status === 'success' });
      if (query.range) {
        base.whereRaw("(created_at AT TIME ZONE 'Europe/London')::date >= ?::date - ?::int", [today, RANGE_DAYS[query.range]]);
      }
      if (query.search) {
        const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        base.where((q) => q.whereILike('pilot_name', like).orWhereILike('employee_id', like).orWhereILike('sender_email', like).orWhereILike('file_name', like));
      }
      const [{ count }] = (await base.clone().count<{ count: string }[]>('* as count')) as [{ count: string }];
      const rows = (await base.orderBy('created_at', 'desc').limit(query.limit).offset(query.offset)) as Row[];
      return { records: rows.map(toRecord), total: Number(count) };
    },

    async stats(): Promise<RosterStats> {
      const [row] = (await db('roster_history').select(
        db.raw('count(*)::int AS total'),
        db.raw("count(*) FILTER (WHERE source_type = 'email')::int AS email"),
        db.raw("count(*) FILTER (WHERE source_type = 'manual_upload')::int AS manual"),
        db.raw('count(*) FILTER (WHERE success)::int AS successful'),
        db.raw('coalesce(round(avg(duration_ms)), 0)::int AS average'),
        db.raw('coalesce(sum(trips_added), 0)::int AS trips'),
      )) as { total: number; email: number; manual: number; successful: number; average: number; trips: number }[];
      return {
        totalProcessed: row!.total,
        emailProcessed: row!.email,
        manualProcessed: row!.manual,
        successfulProcessed: row!.successful,
        averageDurationMs: row!.average,
        totalTripsAdded: row!.trips,
      };
    },
  };
}
export type HistoryRepository = ReturnType<typeof createHistoryRepository>;
