import { startDurableConsumer, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import type { ProcessMail } from '../domain/process-mail';

/**
 * Takes stored mail ids off the ROSTER_MAIL stream. Parsing and the import at trips happen before
 * the transaction opens, so a slow trips pins no pool connection; the ack follows the commit of
 * the history record. A worker killed mid-import leaves the id unacked and another (or the
 * restarted) worker gets it after `ackWaitMs`. Mails are independent, so `concurrency` of them
 * are worked at once.
 */
export function startMailWorker(deps: { db: Db; bus: Bus; log: Logger; processMail: ProcessMail; ackWaitMs: number; concurrency: number }): Promise<RunningConsumer> {
  const { processMail } = deps;
  return startDurableConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'ROSTER_MAIL',
    durable: 'roster_mail_worker',
    filter: 'roster.mail.>',
    subjects: [SUBJECTS.rosterMailReceived],
    ackWaitMs: deps.ackWaitMs,
    concurrency: deps.concurrency,
    handler: {
      prepare: (event) => processMail.prepare(event.data.mailId),
      apply: (event, plan, trx) => processMail.apply(event.data.mailId, plan, trx),
    },
  });
}
