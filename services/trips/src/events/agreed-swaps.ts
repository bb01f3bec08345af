import { startDurableConsumer, type Bus, type Db, type Logger, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { EndAgreedSwap, WithdrawAgreedOffers } from '../domain/withdraw-agreed-offers';

/** Swaps' agreements: both trips of an agreed swap come off offer; a cancelled or refused one ends. */
export function startAgreedSwaps(deps: { db: Db; bus: Bus; log: Logger; withdraw: WithdrawAgreedOffers; end: EndAgreedSwap }): Promise<RunningConsumer> {
  return startDurableConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'SWAPS',
    durable: 'trips_agreed_swaps',
    filter: 'swaps.agreement.>',
    subjects: [SUBJECTS.agreementMade, SUBJECTS.agreementCancelled, SUBJECTS.agreementRefused],
    handler: {
      apply: (event, _prepared, trx) =>
        event.type === SUBJECTS.agreementMade ? deps.withdraw.execute(trx, event.data.agreement) : deps.end.execute(trx, event.data.agreement),
    },
  });
}
