import { fromRow, type Db, type Executor } from '@crewswap/kit';

export interface InboundMail {
  id: string;
  mailFrom: string | null;
  /** The name the sending server gave in HELO/EHLO (SPF checks it). */
  helo: string | null;
  rcptTo: string[];
  remoteAddress: string | null;
  sizeBytes: number;
  raw: Buffer;
  /** The From address the receiver proved by DKIM or SPF; null for mail to a private address, or stored before the receiver checked. */
  authenticatedFrom: string | null;
  receivedAt: Date;
}

interface MailRow {
  id: string;
  mail_from: string | null;
  helo: string | null;
  rcpt_to: string[];
  remote_address: string | null;
  size_bytes: number;
  raw: Buffer;
  authenticated_from: string | null;
  received_at: Date;
}

export function createMailRepository(db: Db) {
  return {
    async insert(mail: Omit<InboundMail, 'receivedAt' | 'authenticatedFrom'> & { authenticatedFrom?: string | null }, trx: Executor = db): Promise<void> {
      await trx('inbound_mail').insert({
        id: mail.id,
        mail_from: mail.mailFrom,
        helo: mail.helo,
        rcpt_to: mail.rcptTo,
        remote_address: mail.remoteAddress,
        size_bytes: mail.sizeBytes,
        raw: mail.raw,
        authenticated_from: mail.authenticatedFrom ?? null,
      });
    },

    async find(id: string, trx: Executor = db): Promise<InboundMail | undefined> {
      const row: MailRow | undefined = await trx('inbound_mail').where({ id }).first();
      return row && fromRow(row, ['id', 'mail_from', 'helo', 'rcpt_to', 'remote_address', 'size_bytes', 'raw', 'authenticated_from', 'received_at']);
    },

    /** Set aside during an emergency shutdown; `release` hands it back after the resume. */
    async hold(id: string, trx: Executor = db): Promise<void> {
      await trx('inbound_mail').where({ id }).update({ held_at: trx.fn.now() });
    },

    /** The held mails, no longer held: their ids, to be queued again. */
    async release(trx: Executor = db): Promise<string[]> {
      const rows: { id: string }[] = await trx('inbound_mail').whereNotNull('held_at').whereNull('processed_at').update({ held_at: null }).returning('id');
      return rows.map((row) => row.id);
    },

    async markProcessed(id: string, trx: Executor = db): Promise<void> {
      await trx('inbound_mail').where({ id }).update({ processed_at: trx.fn.now() });
    },
  };
}
export type MailRepository = ReturnType<typeof createMailRepository>;
