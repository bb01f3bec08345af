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

export function createSendMail(deps: { db: Db; mailer: Mailer; mailLog: MailLog; clock: Clock; log: Logger }) {
  const { db, mailer, mailLog, clock, log } = deps;
  return {
    /**
     * Sends one mail command inside the consumer's transaction. A failure is logged outside that
     * transaction (it rolls back) and thrown, so the consumer naks and the command comes again.
     */
    async execute(mail: OutgoingMail, trx: Trx): Promise<void> {
      const entry = { eventId: mail.id, to: mail.to, subject: mail.subject, transport: mailer.transport };
      try {
        const detail = await mailer.send(mail);
        await mailLog.record({ ...entry, status: 'sent', detail, sentAt: clock.now() }, trx);
      } catch (error) {
        const detail = (error as Error).message;
        if (isPermanentRejection(error)) {
          log.warn({ err: error, eventId: mail.id, to: mail.to }, 'mail server rejected the recipient; not retrying');
          await mailLog.record({ ...entry, status: 'rejected', detail, sentAt: clock.now() }, trx);
          return;
        }
        await mailLog.record({ ...entry, status: 'failed', detail, sentAt: clock.now() }, db).catch(() => undefined);
        throw error;
      }
    },
  };
}
export type SendMail = ReturnType<typeof createSendMail>;
