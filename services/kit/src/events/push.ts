import { SUBJECTS, type EventDataMap } from '@crewswap/proto';
import type { Executor } from '../data/db';
import type { Outbox } from './outbox';

type SendPush = EventDataMap[typeof SUBJECTS.sendPush];

/** Rows per INSERT: a fan-out to a whole fleet stays far below Postgres's limit of bind parameters. */
const ROWS_PER_INSERT = 1000;

/**
 * Asks notifications for the same push to each pilot, in the transaction of the change it tells
 * of, so a change that rolls back sends nothing. The dedupe key names pilot and change, so that
 * push-sender drops a redelivered command but not the next change of the same kind.
 */
export async function pushToEach(
  outbox: Outbox,
  trx: Executor,
  pilotIds: readonly string[],
  push: Omit<SendPush, 'pilotId' | 'dedupeKey'>,
  dedupeKey: (pilotId: string) => string,
): Promise<void> {
  for (let start = 0; start < pilotIds.length; start += ROWS_PER_INSERT) {
    const batch = pilotIds.slice(start, start + ROWS_PER_INSERT);
    await outbox.writeMany(trx, SUBJECTS.sendPush, batch.map((pilotId) => ({ data: { pilotId, ...push, dedupeKey: dedupeKey(pilotId) } })));
  }
}
