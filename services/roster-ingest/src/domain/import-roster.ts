import { afterCommit, composeMail, HttpError, requestRpc, type Bus, type Db, type Executor, type Outbox } from '@crewswap/kit';
import { ImportTripsReply, numericDate, rosterChangeSummary, ROSTER_MAX_EVENTS, ROSTER_MESSAGES, RPC, SUBJECTS, type RosterErrorType, type RosterSource, type RosterTripChange, type RosterUploadResult } from '@crewswap/proto';
import type { z } from 'zod';
import type { HistoryRepository } from '../data/history';
import type { KnownPilot } from '../data/pilots';
import type { RosterMetrics } from '../metrics';
import { RosterError } from './calendar';
import type { ParsedRoster, ParsedTrip } from './parse-roster';

export interface RosterFile {
  name: string;
  contentType: string | null;
  text: string;
  sizeBytes: number;
}

export interface ImportInput {
  source: RosterSource;
  pilotId: string;
  pilot: KnownPilot | undefined;
  files: RosterFile[];
  startedAt: Date;
  ipAddress?: string | null;
  userAgent?: string | null;
  senderEmail?: string | null;
  attachmentCount: number;
  /** Emailed rosters: the stored mail; also the import id, so a retried mail stores nothing twice. */
  mailId?: string;
  /** Where a confirmation goes (emailed rosters). */
  replyTo?: string | null;
}

/** An import's outcome and the writes that record it, to run in the caller's transaction. */
export interface Recorded {
  outcome: ImportOutcome;
  write(executor: Executor): Promise<void>;
}

export type ImportOutcome = { ok: true; result: RosterUploadResult } | { ok: false; errorType: RosterErrorType; message: string };

type Reply = z.infer<typeof ImportTripsReply>;
const keyOf = (trip: { flightNoStart: string; flightNoEnd: string; startDate: string }) => `${trip.flightNoStart}/${trip.flightNoEnd}/${trip.startDate}`;

/**
 * One roster import, from files to stored trips: parse every calendar, ask trips to import the
 * records (it decides duplicates, conflicts and old trips), then record the history, publish
 * `roster.roster.processed` and, for mail, queue the reply, all in one transaction that opens
 * only after trips has answered.
 */
export function createImportRoster(deps: {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  history: HistoryRepository;
  metrics: RosterMetrics;
  productName: string;
  /**
   * Reads one file (`readRosterFile`), off the event loop in the service, sharing the workers
   * fairly between pilots (`owner`). A mail does not wait behind its pilot's earlier file
   * (`waitForOwner: false`): it is refused with a 503 and tried again later.
   */
  parse: (text: string, options: { base: string | null | undefined; owner: string; waitForOwner: boolean }) => Promise<ParsedRoster>;
}) {
  const { db, bus, outbox, history } = deps;

  /** A failed import's record: history, and for mail the reply saying why. */
  function failure(input: ImportInput, stage: string, errorType: RosterErrorType, message: string, counts: { totalEvents?: number } = {}): Recorded {
    return {
      outcome: { ok: false, errorType, message },
      write: async (executor) => {
        if (input.replyTo) await outbox.write(executor, SUBJECTS.sendMail, failureMail(input, message, deps.productName));
        await history.insert({ ...baseRecord(input, stage), success: false, errorType, errorMessage: message, totalEvents: counts.totalEvents ?? 0 }, executor);
        afterCommit(executor, () => deps.metrics.imports.inc({ source: metricSource(input), result: 'failed' }));
      },
    };
  }

  /** Writes a record in `trx`, or in a transaction of its own. */
  async function record(recorded: Recorded, trx?: Executor): Promise<ImportOutcome> {
    if (trx) await recorded.write(trx);
    else await db.transaction((own) => recorded.write(own));
    return recorded.outcome;
  }

  /**
   * Everything before the record: parses every calendar and asks trips to import the records,
   * with no transaction open (the trips call may take up to 30 s). Trips remembers the import
   * id, so preparing the same mail twice stores its trips once.
   */
  async function prepare(input: ImportInput): Promise<Recorded> {
    if (input.files.length === 0) return failure(input, 'attachments', 'NO_CALENDAR_ATTACHMENT', ROSTER_MESSAGES.NO_CALENDAR_ATTACHMENT);
    const parsed: ParsedTrip[] = [];
    let totalEvents = 0;
    let skippedEvents = 0;
    let duplicateEvents = 0;
    for (const file of input.files) {
      try {
        const roster = await deps.parse(file.text, { base: input.pilot?.base, owner: input.pilotId, waitForOwner: input.source !== 'email' });
        parsed.push(...roster.trips);
        totalEvents += roster.totalEvents;
        skippedEvents += roster.skipped.length;
        duplicateEvents += roster.duplicateEvents;
      } catch (error) {
        if (!(error instanceof RosterError)) throw error;
        // One broken calendar refuses the whole import: a partial roster is never stored.
        const message = input.files.length > 1 ? `${file.name}: ${error.message}` : error.message;
        return failure(input, 'parse', error.type, message, { totalEvents });
      }
    }

    // Each file is under the limit; together they must be too (the trips call carries them all).
    if (totalEvents > ROSTER_MAX_EVENTS) return failure(input, 'parse', 'TOO_MANY_EVENTS', ROSTER_MESSAGES.TOO_MANY_EVENTS, { totalEvents });

    let reply: Reply;
    try {
      reply = await requestRpc(
        bus,
        RPC.importTrips,
        {
          pilotId: input.pilotId,
          trips: parsed.map(({ trip }) => trip),
          source: input.source === 'manual_upload' ? 'upload' : input.source,
          importId: input.mailId,
        },
        ImportTripsReply,
        30_000,
      );
    } catch (error) {
      // A refusal (4xx) is final; trips being away (5xx) is not, and the caller retries or answers 503.
      if (error instanceof HttpError && error.status < 500) return failure(input, 'import', 'IMPORT_FAILED', error.message, { totalEvents });
      throw error;
    }

    const changedCount = reply.changes.filter((change) => change.kind === 'changed').length;
    const removedCount = reply.changes.filter((change) => change.kind === 'removed').length;
    const eventsOf = new Map(parsed.map((item) => [keyOf(item.trip), item.events]));
    const conflictEvents = reply.conflicts.reduce((sum, item) => sum + (eventsOf.get(keyOf(item.trip)) ?? 1), 0);
    skippedEvents += reply.skipped.reduce((sum, item) => sum + (eventsOf.get(keyOf(item.trip)) ?? 1), 0);
    const conflicts = reply.conflicts.map(
      ({ trip, conflictsWith }) => `${tripDates(trip)} overlaps ${conflictsWith}`,
    );
    const result: RosterUploadResult = {
      processedCount: reply.processedCount,
      duplicateCount: reply.duplicateCount,
      conflictCount: reply.conflicts.length,
      conflicts,
      skippedCount: reply.skipped.length,
      skipped: reply.skipped.map(({ trip, reason }) => ({ trip: tripDates(trip), reason })),
      message: summary(reply.processedCount, reply.duplicateCount, conflicts, changedCount, removedCount),
      addedCount: reply.processedCount,
      changedCount,
      removedCount,
      changes: reply.changes,
    };

    const write = async (executor: Executor) => {
      const confirmation = Boolean(input.replyTo);
      const mail = input.replyTo ? outbox.rows(SUBJECTS.sendMail, [{ data: successMail(input.replyTo, result, deps.productName) }]) : [];
      // The record, the reply mail and roster.roster.processed in one statement.
      await history.insertWithEvents(
        {
          ...baseRecord(input, 'complete'),
          success: true,
          totalEvents,
          tripsAdded: reply.processedCount,
          tripsChanged: changedCount,
          tripsRemoved: removedCount,
          changes: reply.changes,
          skippedEvents,
          duplicateEvents: duplicateEvents + reply.duplicateCount,
          conflictEvents,
          confirmationEmailSent: confirmation,
          errorType: null,
          errorMessage: null,
        },
        (historyId) => [
          ...mail,
          ...outbox.rows(SUBJECTS.rosterProcessed, [
            {
              data: {
                pilotId: input.pilotId,
                historyId,
                source: input.source,
                processedCount: result.processedCount,
                duplicateCount: result.duplicateCount,
                conflictCount: result.conflictCount,
                skippedCount: result.skippedCount,
                changedCount,
                removedCount,
                changedTripIds: reply.changes.filter((change) => change.kind === 'changed').map((change) => change.tripId),
              },
            },
          ]),
        ],
        executor,
      );
      outbox.written(executor);
      afterCommit(executor, () => deps.metrics.imports.inc({ source: metricSource(input), result: 'processed' }));
    };
    return { outcome: { ok: true, result }, write };
  }

  return {
    failure,
    prepare,
    record,
    fail: (input: ImportInput, trx: Executor | undefined, stage: string, errorType: RosterErrorType, message: string) => record(failure(input, stage, errorType, message), trx),
    /** An upload: prepared, then recorded in a transaction of its own. */
    execute: async (input: ImportInput): Promise<ImportOutcome> => record(await prepare(input)),
  };
}
export type ImportRoster = ReturnType<typeof createImportRoster>;

function baseRecord(input: ImportInput, stage: string) {
  const end = new Date();
  const first = input.files[0];
  return {
    pilotId: input.pilot?.id ?? (input.source === 'manual_upload' ? input.pilotId : null),
    pilotName: input.pilot ? `${input.pilot.firstName} ${input.pilot.lastName}` : null,
    employeeId: input.pilot?.employeeId ?? null,
    validationStage: stage,
    sourceType: input.source,
    fileName: text(input.files.map((file) => file.name).join(', '), 300),
    fileFormatReceived: first ? text(first.contentType ?? extensionOf(first.name), 100) : null,
    attachmentCount: input.attachmentCount,
    fileSizeBytes: input.files.reduce((sum, file) => sum + file.sizeBytes, 0),
    senderEmail: text(input.senderEmail, 300),
    totalEvents: 0,
    tripsAdded: 0,
    skippedEvents: 0,
    duplicateEvents: 0,
    conflictEvents: 0,
    durationMs: end.getTime() - input.startedAt.getTime(),
    processingStartTime: input.startedAt,
    processingEndTime: end,
    ipAddress: input.ipAddress ?? null,
    userAgent: text(input.userAgent, 500),
    confirmationEmailSent: Boolean(input.replyTo),
    mailId: input.mailId ?? null,
  };
}

/** What a sender chose (names, types, addresses) fits its column: no NUL, which Postgres cannot store, and no overflow. */
const text = (value: string | null | undefined, max: number) => value?.replace(/\u0000/g, '').slice(0, max) || null;

/** 'VS127/VS128 (12/08/2026 to 12/11/2026)': the pilot reads it in the upload result, dates in numbers as MM/dd/yyyy. */
const tripDates = (trip: { flightNoStart: string; flightNoEnd: string; startDate: string; endDate: string }) =>
  `${trip.flightNoStart}/${trip.flightNoEnd} (${numericDate(trip.startDate)} to ${numericDate(trip.endDate)})`;

const metricSource = (input: ImportInput) => (input.source === 'manual_upload' ? 'upload' : input.source);

function extensionOf(name: string): string | null {
  const match = /\.[a-z0-9_]+$/i.exec(name);
  return match ? match[0].toLowerCase() : null;
}

export function summary(added: number, duplicates: number, conflicts: string[], changed = 0, removed = 0): string {
  // A roster that changed earlier ones says so first ('3 added, 1 changed, 2 removed'); one that only adds reads as before.
  const parts = changed + removed > 0 ? [rosterChangeSummary(added, changed, removed)] : [`${added} ${added === 1 ? 'trip' : 'trips'} added`];
  if (duplicates > 0) parts.push(`${duplicates} ${duplicates === 1 ? 'duplicate' : 'duplicates'} skipped`);
  if (conflicts.length > 0) parts.push(`${conflicts.length} ${conflicts.length === 1 ? 'conflict' : 'conflicts'}: ${conflicts.join('; ')}`);
  // A repeat of a roster whose import already stored everything (a retry after an answer that never came).
  const already = added === 0 && changed + removed === 0 && duplicates > 0 && conflicts.length === 0;
  return `${already ? 'Already imported: ' : ''}${parts.join(', ')}`;
}

function successMail(to: string, result: RosterUploadResult, product: string) {
  const changedOrRemoved = result.changedCount + result.removedCount > 0;
  const lines = [`Your roster was imported into ${product}.`, '', changedOrRemoved ? `${result.message}.` : `${result.processedCount} trips added.`];
  if (changedOrRemoved) lines.push('', ...changeLines(result.changes), '');
  if (result.duplicateCount > 0) lines.push(`${result.duplicateCount} trips were already in ${product} and were skipped.`);
  for (const conflict of result.conflicts) lines.push(`Not added, conflicts with a trip you hold: ${conflict}`);
  if (result.skippedCount > 0) lines.push(`${result.skippedCount} entries could not be read as trips and were skipped.`);
  const counted = changedOrRemoved ? rosterChangeSummary(result.addedCount, result.changedCount, result.removedCount) : `${result.processedCount} trips added`;
  return { to, subject: `${product}: roster imported, ${counted}`, ...composeMail({ product, lines }) };
}

/** Each trip the roster added, changed or removed, one line, as the reply mail lists them. */
export function changeLines(changes: RosterTripChange[]): string[] {
  const name = (trip: NonNullable<RosterTripChange['before']>) =>
    `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}${trip.aircraft ? ` (${trip.aircraft})` : ''}, ${trip.startDate === trip.endDate ? trip.startDate : `${trip.startDate} to ${trip.endDate}`}`;
  return changes.map((change) => {
    if (change.kind === 'added') return `Added: ${name(change.after!)}`;
    if (change.kind === 'removed') return `Removed: ${name(change.before!)}`;
    return `Changed: ${name(change.before!)} is now ${name(change.after!)}`;
  });
}

function failureMail(input: ImportInput, message: string, product: string) {
  return {
    to: input.replyTo!,
    subject: `${product}: your roster could not be imported`,
    ...composeMail({ product, lines: [`We could not import the roster you emailed to ${product}.`, '', message, '', 'Nothing was changed. Please correct the issue and try again.'] }),
  };
}
