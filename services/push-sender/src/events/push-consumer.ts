import { startWorkQueue, type Bus, type Db, type Logger, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { DeliverPush } from '../domain/deliver-push';

export const PUSH_DURABLE = 'notifications_push';
/** Push services answer within seconds; a stale push is dropped after PUSH_MAX_AGE_MS anyway. */
export const PUSH_BACKOFF_MS = [2_000, 10_000, 30_000, 60_000, 120_000] as const;
export const PUSH_MAX_DELIVER = 6;

/**
 * The push work queue: every push-sender replica pulls from it, up to `concurrency` commands at
 * once (web push is network-bound). The notification log is the push's own record, so a command
 * delivered twice is sent once.
 */
export function startPushConsumer(deps: { db: Db; bus: Bus; log: Logger; deliver: DeliverPush; concurrency: number }): Promise<RunningConsumer> {
  return startWorkQueue({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'NOTIFICATIONS',
    durable: PUSH_DURABLE,
    filter: SUBJECTS.sendPush,
    subjects: [SUBJECTS.sendPush],
    concurrency: deps.concurrency,
    ackWaitMs: 60_000,
    maxDeliver: PUSH_MAX_DELIVER,
    backoffMs: PUSH_BACKOFF_MS,
    handle: async (command) => {
      const outcome = await deps.deliver.execute(command);
      if (outcome.result !== 'done') throw new Error(outcome.reason);
    },
  });
}
