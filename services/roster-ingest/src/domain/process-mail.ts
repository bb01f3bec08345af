import { HttpError, unreachableDependency, type Executor } from '@crewswap/kit';
import { ROSTER_MAX_ATTACHMENTS, ROSTER_MESSAGES, isRosterFileName } from '@crewswap/proto';
import { simpleParser, type Attachment } from 'mailparser';
import type { Logger } from 'pino';
import type { HistoryRepository } from '../data/history';
import type { MailRepository } from '../data/mail';
import type { PilotRepository } from '../data/pilots';
import type { ImportInput, ImportRoster, RosterFile } from './import-roster';

/** Calendar attachments: the upload's extensions, or a calendar content type whatever the name. */
export function isCalendarAttachment(attachment: Pick<Attachment, 'filename' | 'contentType'>): boolean {
  if (attachment.filename && isRosterFileName(attachment.filename)) return true;
  return /^(text|application)\/(calendar|ics)/i.test(attachment.contentType);
}

/**
 * Whether trying the same mail again later could succeed: a dependency that is away (the
 * database, NATS, trips answering 5xx). Anything else is the mail's own doing and would fail the
 * same way every time.
 */
export function isTemporary(error: unknown): boolean {
  if (error instanceof HttpError) return error.status >= 500;
  return unreachableDependency(error) !== undefined;
}

/**
 * Works through one stored mail: finds the sending pilot in the projection of auth's pilots (never
 * auth's tables), takes the calendar attachments and imports them. Runs in the worker's transaction,
 * so a crash before commit leaves the mail to be processed again, once. A mail that can never be
 * imported is recorded as failed and answered at once, not retried as if the fault were passing.
 */
export function createProcessMail(deps: { mails: MailRepository; pilots: PilotRepository; history: HistoryRepository; importRoster: ImportRoster; log: Logger }) {
  const { mails, pilots, history, importRoster, log } = deps;
  return {
    async execute(mailId: string, trx: Executor): Promise<void> {
      const mail = await mails.find(mailId, trx);
      if (!mail || (await history.findByMail(mailId, trx))) return;
      const startedAt = new Date();
      let base: ImportInput = { source: 'email', pilotId: '', pilot: undefined, files: [], startedAt, ipAddress: mail.remoteAddress, senderEmail: mail.mailFrom, attachmentCount: 0, mailId, replyTo: null };
      try {
        // A savepoint: a statement that fails on this mail's data leaves the outer transaction usable for its failure record.
        await trx.transaction(async (inner) => {
          const parsed = await simpleParser(mail.raw);
          const sender = (parsed.from?.value[0]?.address ?? mail.mailFrom ?? '').trim().toLowerCase();
          const pilot = sender ? await pilots.findByEmail(sender, inner) : undefined;
          base = {
            ...base,
            pilotId: pilot?.id ?? '',
            pilot,
            userAgent: parsed.headers.get('x-mailer')?.toString() ?? null,
            senderEmail: sender || null,
            attachmentCount: parsed.attachments.length,
            replyTo: sender.includes('@') ? sender : null,
          };
          if (parsed.attachments.length > ROSTER_MAX_ATTACHMENTS) {
            await importRoster.fail(base, inner, 'attachments', 'TOO_MANY_ATTACHMENTS', ROSTER_MESSAGES.TOO_MANY_ATTACHMENTS);
            return;
          }
          const files: RosterFile[] = parsed.attachments.filter(isCalendarAttachment).map((attachment, i) => ({
            name: attachment.filename ?? `attachment-${i + 1}.ics`,
            contentType: attachment.contentType,
            text: attachment.content.toString('utf8'),
            sizeBytes: attachment.size ?? attachment.content.length,
          }));
          base = { ...base, files };
          if (!pilot) await importRoster.fail(base, inner, 'sender', 'UNKNOWN_SENDER', ROSTER_MESSAGES.UNKNOWN_SENDER);
          else await importRoster.execute(base, inner);
        });
      } catch (error) {
        if (isTemporary(error)) throw error;
        log.error({ err: error, mailId }, 'an emailed roster can never be imported; recorded as failed');
        // mailparser stops at 1,000 MIME parts, before it can count the attachments for the check above.
        if (error instanceof Error && /child nodes/i.test(error.message)) {
          await importRoster.fail(base, trx, 'attachments', 'TOO_MANY_ATTACHMENTS', ROSTER_MESSAGES.TOO_MANY_ATTACHMENTS);
        } else {
          await importRoster.fail(base, trx, 'parse', 'UNREADABLE_EMAIL', ROSTER_MESSAGES.UNREADABLE_EMAIL);
        }
      }
      await mails.markProcessed(mailId, trx);
    },
  };
}
export type ProcessMail = ReturnType<typeof createProcessMail>;
