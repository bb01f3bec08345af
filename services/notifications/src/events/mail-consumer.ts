import { startConsumer, type Bus, type Db, type Logger, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { SendMail } from '../domain/send-mail';

/** Every service asks for mail with `outbox.write(trx, SUBJECTS.sendMail, ...)`; this sends it, once. */
export function startMailConsumer(deps: { db: Db; bus: Bus; log: Logger; sendMail: SendMail }): Promise<RunningConsumer> {
  return startConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'NOTIFICATIONS',
    durable: 'notifications_mail',
    filter: SUBJECTS.sendMail,
    subjects: [SUBJECTS.sendMail],
    handle: async (event, trx) => deps.sendMail.execute({ id: event.id, ...event.data }, trx),
  });
}
