import { HttpError, unreachableDependency, type Executor } from '@crewswap/kit';
import { ROSTER_MAX_ATTACHMENTS, ROSTER_MESSAGES, isRosterFileName } from '@crewswap/proto';
import { simpleParser, type Attachment } from 'mailparser';
import type { Logger } from 'pino';
import type { HistoryRepository } from '../data/history';
import type { MailRepository } from '../data/mail';
import type { KnownPilot, PilotRepository } from '../data/pilots';
import type { SystemStateRepository } from '../data/system-state';
import type { UploadAddressRepository } from '../data/upload-addresses';
import { checkSender, type DNSResolver } from '../mail/authenticate';
import type { ImportInput, ImportRoster, RosterFile } from './import-roster';
import { tokenOf } from './upload-address';

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
 * Works through one stored mail. Mail to a pilot's private upload address is that pilot's,
 * whoever sent it. Mail to the shared address is taken only when its sender is authenticated
 * (DKIM or SPF aligned with the From domain), and then belongs to the pilot registered with the
 * From address (in the projection of auth's pilots, never auth's tables); an unauthenticated one
 * is recorded as refused and gets no reply, since its From may be anyone's (backscatter).
 * Runs in the worker's transaction, so a crash before commit leaves the mail to be processed
 * again, once. A mail that can never be imported is recorded as failed and answered at once,
 * not retried as if the fault were passing.
 */
export function createProcessMail(deps: {
  mails: MailRepository;
  pilots: PilotRepository;
  history: HistoryRepository;
  addresses: UploadAddressRepository;
  state: SystemStateRepository;
  importRoster: ImportRoster;
  log: Logger;
  /** The shared upload addresses (the `upload_email` setting and its fallback). */
  uploadAddresses: () => Promise<string[]>;
  /** DNS for SPF and DKIM (tests bring their own). */
  resolver?: DNSResolver;
}) {
  const { mails, pilots, history, addresses, importRoster, log } = deps;

  async function ownerByAddress(rcptTo: string[], trx: Executor): Promise<KnownPilot | undefined> {
    const shared = await deps.uploadAddresses();
    for (const recipient of rcptTo) {
      const token = tokenOf(recipient, shared);
      const pilotId = token ? await addresses.pilotOf(token, trx) : undefined;
      const pilot = pilotId ? await pilots.find(pilotId, trx) : undefined;
      if (pilot) return pilot;
    }
    return undefined;
  }

  return {
    async execute(mailId: string, trx: Executor): Promise<void> {
      const mail = await mails.find(mailId, trx);
      if (!mail || (await history.findByMail(mailId, trx))) return;
      // An emergency shutdown stops imports; the mail stays stored and is queued again on resume.
      if (await deps.state.isShutdown(trx)) {
        await mails.hold(mailId, trx);
        return;
      }
      const startedAt = new Date();
      let base: ImportInput = { source: 'email', pilotId: '', pilot: undefined, files: [], startedAt, ipAddress: mail.remoteAddress, senderEmail: mail.mailFrom, attachmentCount: 0, mailId, replyTo: null };

      const owner = await ownerByAddress(mail.rcptTo, trx);
      let sender: string | null = null;
      if (!owner) {
        const check = await checkSender(mail.raw, { ip: mail.remoteAddress, helo: mail.helo, mailFrom: mail.mailFrom }, deps.resolver);
        if (!check.method) {
          await importRoster.fail({ ...base, senderEmail: check.from ?? mail.mailFrom }, trx, 'sender', 'UNAUTHENTICATED_SENDER', ROSTER_MESSAGES.UNAUTHENTICATED_SENDER);
          await mails.markProcessed(mailId, trx);
          return;
        }
        sender = check.from;
      }
      // Replies go where they cannot be forged: the owner's registered address, or an authenticated From.
      const replyTo = owner ? owner.email : sender;
      base = { ...base, senderEmail: sender ?? base.senderEmail, replyTo: replyTo?.includes('@') ? replyTo : null };

      try {
        // A savepoint: a statement that fails on this mail's data leaves the outer transaction usable for its failure record.
        await trx.transaction(async (inner) => {
          const parsed = await simpleParser(mail.raw);
          const from = parsed.from?.value[0]?.address?.trim().toLowerCase() || null;
          const pilot = owner ?? (sender ? await pilots.findByEmail(sender, inner) : undefined);
          base = {
            ...base,
            pilotId: pilot?.id ?? '',
            pilot,
            userAgent: parsed.headers.get('x-mailer')?.toString() ?? null,
            senderEmail: sender ?? from ?? base.senderEmail,
            attachmentCount: parsed.attachments.length,
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
