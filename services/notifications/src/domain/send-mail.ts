import type { Clock, Db, Logger, Trx } from '@crewswap/kit';
import type { MailLog } from '../data/mail-log';
import type { Mailer, OutgoingMail } from './mailer';

/**
 * A mail server's final "no" to every recipient (e.g. 550 no such user). Retrying cannot help, so
 * the command is logged as rejected and acknowledged instead of retried for ever.
 */
function isPermanentRejection(error: unknown): boolean {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500;
}

/** What became of a mail: sent, or refused for good by the receiving server. */
export interface Sent {
  status: 'sent' | 'rejected';
  detail: string;
}

export function createSendMail(deps: { db: Db; mailer: Mailer; mailLog: MailLog; clock: Clock; log: Logger }) {
  const { db, mailer, mailLog, clock, log } = deps;
  const entryOf = (mail: OutgoingMail) => ({ eventId: mail.id, to: mail.to, subject: mail.subject, transport: mailer.transport });
  return {
    /**
     * Sends one mail command, with no transaction open (a mail server may take seconds). A
     * failure is logged and thrown, so the consumer naks and the command comes again.
     */
    async send(mail: OutgoingMail): Promise<Sent> {
      try {
        return { status: 'sent', detail: await mailer.send(mail) };
      } catch (error) {
        const detail = (error as Error).message;
        if (isPermanentRejection(error)) {
          log.warn({ err: error, eventId: mail.id, to: mail.to }, 'mail server rejected the recipient; not retrying');
          return { status: 'rejected', detail };
        }
        await mailLog.record({ ...entryOf(mail), status: 'failed', detail, sentAt: clock.now() }, db).catch(() => undefined);
        throw error;
      }
    },

    /** Logs what `send` did, in the consumer's transaction. */
    async record(mail: OutgoingMail, sent: Sent, trx: Trx): Promise<void> {
      await mailLog.record({ ...entryOf(mail), ...sent, sentAt: clock.now() }, trx);
    },
  };
}
export type SendMail = ReturnType<typeof createSendMail>;
