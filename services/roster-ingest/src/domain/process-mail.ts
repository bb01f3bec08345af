import type { Executor } from '@crewswap/kit';
import { ROSTER_MESSAGES, isRosterFileName } from '@crewswap/proto';
import { simpleParser, type Attachment } from 'mailparser';
import type { HistoryRepository } from '../data/history';
import type { MailRepository } from '../data/mail';
import type { PilotRepository } from '../data/pilots';
import type { ImportRoster, RosterFile } from './import-roster';

/** Calendar attachments: the upload's extensions, or a calendar content type whatever the name. */
export function isCalendarAttachment(attachment: Pick<Attachment, 'filename' | 'contentType'>): boolean {
  if (attachment.filename && isRosterFileName(attachment.filename)) return true;
  return /^(text|application)\/(calendar|ics)/i.test(attachment.contentType);
}

/**
 * Works through one stored mail: finds the sending pilot in the projection of auth's pilots (never
 * auth's tables), takes the calendar attachments and imports them. Runs in the worker's transaction,
 * so a crash before commit leaves the mail to be processed again, once.
 */
export function createProcessMail(deps: { mails: MailRepository; pilots: PilotRepository; history: HistoryRepository; importRoster: ImportRoster }) {
  const { mails, pilots, history, importRoster } = deps;
  return {
    async execute(mailId: string, trx: Executor): Promise<void> {
      const mail = await mails.find(mailId, trx);
      if (!mail || (await history.findByMail(mailId, trx))) return;
      const startedAt = new Date();
      const parsed = await simpleParser(mail.raw);
      const sender = (parsed.from?.value[0]?.address ?? mail.mailFrom ?? '').trim().toLowerCase();
      const attachments = parsed.attachments.filter(isCalendarAttachment);
      const files: RosterFile[] = attachments.map((attachment, i) => ({
        name: attachment.filename ?? `attachment-${i + 1}.ics`,
        contentType: attachment.contentType,
        text: attachment.content.toString('utf8'),
        sizeBytes: attachment.size ?? attachment.content.length,
      }));
      const pilot = sender ? await pilots.findByEmail(sender, trx) : undefined;
      const base = {
        source: 'email' as const,
        pilotId: pilot?.id ?? '',
        pilot,
        files,
        startedAt,
        ipAddress: mail.remoteAddress,
        userAgent: parsed.headers.get('x-mailer')?.toString() ?? null,
        senderEmail: sender || null,
        attachmentCount: parsed.attachments.length,
        mailId,
        replyTo: sender.includes('@') ? sender : null,
      };
      if (!pilot) {
        await importRoster.fail(base, trx, 'sender', 'UNKNOWN_SENDER', ROSTER_MESSAGES.UNKNOWN_SENDER);
      } else {
        await importRoster.execute(base, trx);
      }
      await mails.markProcessed(mailId, trx);
    },
  };
}
export type ProcessMail = ReturnType<typeof createProcessMail>;
