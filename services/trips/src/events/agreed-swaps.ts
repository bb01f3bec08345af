import { startDurableConsumer, type Bus, type Db, type Logger, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { MoveSwappedTrips } from '../domain/move-swapped-trips';
import type { EndAgreedSwap, WithdrawAgreedOffers } from '../domain/withdraw-agreed-offers';

/** Swaps' agreements: both trips of an agreed swap come off offer; a cancelled or refused one ends; an approved one moves its trips. */
export function startAgreedSwaps(deps: { db: Db; bus: Bus; log: Logger; withdraw: WithdrawAgreedOffers; end: EndAgreedSwap; move: MoveSwappedTrips }): Promise<RunningConsumer> {
  return startDurableConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'SWAPS',
    durable: 'trips_agreed_swaps',
    filter: 'swaps.agreement.>',
    subjects: [SUBJECTS.agreementMade, SUBJECTS.agreementCancelled, SUBJECTS.agreementRefused, SUBJECTS.agreementApproved],
    handler: {
      apply: (event, _prepared, trx) => {
        if (event.type === SUBJECTS.agreementMade) return deps.withdraw.execute(trx, event.data.agreement);
        if (event.type === SUBJECTS.agreementApproved) return deps.move.execute(trx, event.data);
        return deps.end.execute(trx, event.data.agreement);
      },
    },
  });
}
