import { startConsumer, type Bus, type Db, type Outbox, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import type { MailRepository } from '../data/mail';
import type { SystemStateRepository } from '../data/system-state';

/**
 * Follows admin's emergency shutdown and resume. During a shutdown the mail worker holds emailed
 * rosters (stored, not imported); the resume queues every held mail again, in the same
 * transaction, so none is forgotten.
 */
export function startSystemState(deps: { db: Db; bus: Bus; log: Logger; outbox: Outbox; state: SystemStateRepository; mails: MailRepository }): Promise<RunningConsumer> {
  const { state, mails, outbox, log } = deps;
  return startConsumer({
    db: deps.db,
    bus: deps.bus,
    log,
    stream: 'ADMIN',
    durable: 'roster_ingest_system_state',
    filter: 'admin.system.>',
    subjects: [SUBJECTS.systemShutdown, SUBJECTS.systemResumed],
    handle: async (event, trx) => {
      const shutdown = event.type === SUBJECTS.systemShutdown;
      if (!(await state.set(shutdown, event.occurredAt, trx)) || shutdown) return;
      const released = await mails.release(trx);
      for (const mailId of released) await outbox.write(trx, SUBJECTS.rosterMailReceived, { mailId });
      if (released.length > 0) log.info({ mails: released.length }, 'operations resumed: held roster mails queued again');
    },
  });
}
