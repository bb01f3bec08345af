import { HttpError, unreachableDependency, type Db, type Trx } from '@crewswap/kit';
import { ROSTER_MAX_ATTACHMENTS, ROSTER_MESSAGES, isRosterFileName } from '@crewswap/proto';
import { simpleParser, type Attachment } from 'mailparser';
import type { Logger } from 'pino';
import type { HistoryRepository } from '../data/history';
import type { MailRepository } from '../data/mail';
import type { KnownPilot, PilotRepository } from '../data/pilots';
import type { SystemStateRepository } from '../data/system-state';
import type { UploadAddressRepository } from '../data/upload-addresses';
import { checkSender, type DNSResolver } from '../mail/authenticate';
import type { ImportInput, ImportRoster, Recorded, RosterFile } from './import-roster';
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

/** What the SMTP receiver knows of a mail when it answers DATA. */
export interface ReceivedMail {
  raw: Buffer;
  mailFrom: string | null;
  helo: string | null;
  rcptTo: string[];
  remoteAddress: string | null;
}

/** The receiver's answer to DATA: take the mail (with the From address it proved, if it had to), or refuse it. */
export type Admission = { admitted: true; authenticatedFrom: string | null } | { admitted: false };

/** The sentence of a refused mail's 5xx, which the sender's own mail server passes on to them. */
export const MAIL_REFUSED = "This address accepts rosters only from a pilot's registered address or their private upload address.";

/** What `prepare` found: nothing to do (gone, or recorded already), a mail to hold, or a record to write. */
export type MailPlan = { kind: 'done' } | { kind: 'hold' } | { kind: 'record'; recorded: Recorded; base: ImportInput };

/**
 * Who may mail a roster, and the work on each mail taken. Mail to a pilot's private upload
 * address is that pilot's, whoever sent it. Mail to the shared address is taken only when its
 * sender is authenticated (DKIM or SPF aligned with the From domain) and that From is a
 * registered pilot's (in the projection of auth's pilots, never auth's tables); `admit` decides
 * this before the receiver answers DATA, so anyone else is refused in the SMTP transaction and
 * we never write to a From that may be anyone's (backscatter).
 * The slow part (`prepare`) runs before the worker's transaction opens; `apply` records the
 * result in it. A mail that can never be imported is recorded as failed and answered at once,
 * not retried as if the fault were passing.
 */
export function createProcessMail(deps: {
  db: Db;
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
  const { db, mails, pilots, history, addresses, importRoster, log } = deps;

  async function ownerByAddress(rcptTo: string[]): Promise<KnownPilot | undefined> {
    const shared = await deps.uploadAddresses();
    for (const recipient of rcptTo) {
      const token = tokenOf(recipient, shared);
      const pilotId = token ? await addresses.pilotOf(token, db) : undefined;
      const pilot = pilotId ? await pilots.find(pilotId, db) : undefined;
      if (pilot) return pilot;
    }
    return undefined;
  }

  /** A mail that cannot be read (or whose record cannot be written) is recorded as such. */
  function unreadable(base: ImportInput, error: unknown): Recorded {
    log.error({ err: error, mailId: base.mailId }, 'an emailed roster can never be imported; recorded as failed');
    // mailparser stops at 1,000 MIME parts, before it can count the attachments for the check above.
    if (error instanceof Error && /child nodes/i.test(error.message)) {
      return importRoster.failure(base, 'attachments', 'TOO_MANY_ATTACHMENTS', ROSTER_MESSAGES.TOO_MANY_ATTACHMENTS);
    }
    return importRoster.failure(base, 'parse', 'UNREADABLE_EMAIL', ROSTER_MESSAGES.UNREADABLE_EMAIL);
  }

  return {
    /**
     * Decided while the sender waits for the answer to DATA: a refused one learns why from their
     * own mail server's bounce, which goes to the envelope sender that server vouches for. The
     * refusal is recorded in roster history first (by the From it names, with no pilot, since
     * anyone may write a pilot's address there). A DNS failure throws (503): the answer is then
     * a temporary 451 and the sending server tries again later.
     */
    async admit(mail: ReceivedMail): Promise<Admission> {
      if (await ownerByAddress(mail.rcptTo)) return { admitted: true, authenticatedFrom: null };
      const startedAt = new Date();
      const check = await checkSender(mail.raw, { ip: mail.remoteAddress, helo: mail.helo, mailFrom: mail.mailFrom }, deps.resolver);
      if (check.method && check.from && (await pilots.findByEmail(check.from, db))) return { admitted: true, authenticatedFrom: check.from };
      const errorType = check.method ? 'UNKNOWN_SENDER' : 'UNAUTHENTICATED_SENDER';
      const refused: ImportInput = { source: 'email', pilotId: '', pilot: undefined, files: [], startedAt, ipAddress: mail.remoteAddress, senderEmail: check.from ?? mail.mailFrom, attachmentCount: 0, replyTo: null };
      await importRoster.fail(refused, undefined, 'sender', errorType, ROSTER_MESSAGES[errorType]);
      log.info({ errorType, remoteAddress: mail.remoteAddress }, 'roster mail refused in the SMTP transaction');
      return { admitted: false };
    },

    /**
     * Everything slow, with no transaction open: authenticating the sender, parsing the mail
     * and its calendars, and the import at trips. Reads are plain reads; `apply` checks again
     * what may have changed meanwhile.
     */
    async prepare(mailId: string): Promise<MailPlan> {
      const mail = await mails.find(mailId, db);
      if (!mail || (await history.findByMail(mailId, db))) return { kind: 'done' };
      // An emergency shutdown stops imports; the mail stays stored and is queued again on resume.
      if (await deps.state.isShutdown(db)) return { kind: 'hold' };
      const startedAt = new Date();
      let base: ImportInput = { source: 'email', pilotId: '', pilot: undefined, files: [], startedAt, ipAddress: mail.remoteAddress, senderEmail: mail.mailFrom, attachmentCount: 0, mailId, replyTo: null };

      const owner = await ownerByAddress(mail.rcptTo);
      let sender: string | null = null;
      if (!owner && mail.authenticatedFrom) sender = mail.authenticatedFrom;
      else if (!owner) {
        // Proved by the receiver for mail it took; checked here only for mail stored before it did, or whose private address was replaced since.
        const check = await checkSender(mail.raw, { ip: mail.remoteAddress, helo: mail.helo, mailFrom: mail.mailFrom }, deps.resolver);
        if (!check.method) {
          const refused = importRoster.failure({ ...base, senderEmail: check.from ?? mail.mailFrom }, 'sender', 'UNAUTHENTICATED_SENDER', ROSTER_MESSAGES.UNAUTHENTICATED_SENDER);
          return { kind: 'record', recorded: refused, base };
        }
        sender = check.from;
      }
      // Replies go where they cannot be forged: the owner's registered address, or an authenticated From.
      const replyTo = owner ? owner.email : sender;
      base = { ...base, senderEmail: sender ?? base.senderEmail, replyTo: replyTo?.includes('@') ? replyTo : null };

      try {
        const parsed = await simpleParser(mail.raw);
        const from = parsed.from?.value[0]?.address?.trim().toLowerCase() || null;
        const pilot = owner ?? (sender ? await pilots.findByEmail(sender, db) : undefined);
        base = {
          ...base,
          pilotId: pilot?.id ?? '',
          pilot,
          userAgent: parsed.headers.get('x-mailer')?.toString() ?? null,
          senderEmail: sender ?? from ?? base.senderEmail,
          attachmentCount: parsed.attachments.length,
        };
        if (parsed.attachments.length > ROSTER_MAX_ATTACHMENTS) {
          return { kind: 'record', recorded: importRoster.failure(base, 'attachments', 'TOO_MANY_ATTACHMENTS', ROSTER_MESSAGES.TOO_MANY_ATTACHMENTS), base };
        }
        const files: RosterFile[] = parsed.attachments.filter(isCalendarAttachment).map((attachment, i) => ({
          name: attachment.filename ?? `attachment-${i + 1}.ics`,
          contentType: attachment.contentType,
          text: attachment.content.toString('utf8'),
          sizeBytes: attachment.size ?? attachment.content.length,
        }));
        base = { ...base, files };
        if (!pilot) return { kind: 'record', recorded: importRoster.failure(base, 'sender', 'UNKNOWN_SENDER', ROSTER_MESSAGES.UNKNOWN_SENDER), base };
        return { kind: 'record', recorded: await importRoster.prepare(base), base };
      } catch (error) {
        if (isTemporary(error)) throw error;
        return { kind: 'record', recorded: unreadable(base, error), base };
      }
    },

    /** Records what `prepare` found, in the worker's transaction; a crash before commit leaves the mail to be processed again. */
    async apply(mailId: string, plan: MailPlan, trx: Trx): Promise<void> {
      if (plan.kind === 'done' || (await history.findByMail(mailId, trx))) return;
      if (plan.kind === 'hold') {
        await mails.hold(mailId, trx);
        return;
      }
      try {
        // A savepoint: a statement that fails on this mail's data leaves the outer transaction usable for its failure record.
        await trx.transaction((inner) => importRoster.record(plan.recorded, inner));
      } catch (error) {
        if (isTemporary(error)) throw error;
        await importRoster.record(unreadable(plan.base, error), trx);
      }
      await mails.markProcessed(mailId, trx);
      log.info({ mailId, pilotId: plan.base.pilotId || null, attachments: plan.base.attachmentCount }, 'roster mail processed');
    },
  };
}
export type ProcessMail = ReturnType<typeof createProcessMail>;
