import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '@crewswap/kit';

export type MailTransportName = 'smtp' | 'file';
/** sent; failed (will be retried); rejected (the mail server refused the recipient for good). */
export type MailStatus = 'sent' | 'failed' | 'rejected';

export interface MailLogEntry {
  id: string;
  eventId: string;
  to: string;
  subject: string;
  transport: MailTransportName;
  status: MailStatus;
  detail: string | null;
  sentAt: Date;
}

export type MailLog = ReturnType<typeof createMailLog>;

export function createMailLog(db: Db) {
  return {
    async record(entry: Omit<MailLogEntry, 'id'>, trx: Executor = db): Promise<void> {
      await trx('mail_log').insert({
        id: randomUUID(),
        event_id: entry.eventId,
        to: entry.to,
        subject: entry.subject.slice(0, 1000),
        transport: entry.transport,
        status: entry.status,
        detail: entry.detail,
        sent_at: entry.sentAt,
      });
    },

    async forEvent(eventId: string, trx: Executor = db): Promise<MailLogEntry[]> {
      const rows = await trx('mail_log').where({ event_id: eventId }).orderBy('sent_at').orderBy('status');
      return rows.map((row) => ({
        id: row.id,
        eventId: row.event_id,
        to: row.to,
        subject: row.subject,
        transport: row.transport,
        status: row.status,
        detail: row.detail,
        sentAt: row.sent_at,
      }));
    },
  };
}
