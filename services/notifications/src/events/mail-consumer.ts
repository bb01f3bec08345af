import { startDurableConsumer, type Bus, type Db, type Logger, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { SendMail } from '../domain/send-mail';

/**
 * Every service asks for mail with `outbox.write(trx, SUBJECTS.sendMail, ...)`; this sends it
 * before the transaction that logs it opens. A crash between the two sends the mail again.
 */
export function startMailConsumer(deps: { db: Db; bus: Bus; log: Logger; sendMail: SendMail }): Promise<RunningConsumer> {
  return startDurableConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'NOTIFICATIONS',
    durable: 'notifications_mail',
    filter: SUBJECTS.sendMail,
    subjects: [SUBJECTS.sendMail],
    handler: {
      prepare: (event) => deps.sendMail.send({ id: event.id, ...event.data }),
      apply: (event, sent, trx) => deps.sendMail.record({ id: event.id, ...event.data }, sent, trx),
    },
  });
}
