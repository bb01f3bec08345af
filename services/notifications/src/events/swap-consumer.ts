import { startDurableConsumer, type Bus, type Db, type Logger, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import { NOTICE_SUBJECTS, type SwapNotices, type SwapNoticeEvent } from '../domain/swap-notices';

/** Swaps' proposal and agreement events, told to the pilots (and crewing) as pushes and mails. */
export function startSwapConsumer(deps: { db: Db; bus: Bus; log: Logger; notices: SwapNotices; crewingEmail: () => Promise<string> }): Promise<RunningConsumer> {
  return startDurableConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'SWAPS',
    durable: 'notifications_swaps',
    filter: 'swaps.>',
    subjects: NOTICE_SUBJECTS,
    handler: {
      // The setting is asked before the transaction opens (admin may be slow or away: its default then).
      prepare: async (event) => (event.type === SUBJECTS.agreementMade ? deps.crewingEmail() : ''),
      apply: (event, crewingEmail, trx) => deps.notices.apply(event as SwapNoticeEvent, crewingEmail, trx),
    },
  });
}
