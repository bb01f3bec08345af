import { backoffDelay, noteConsumer, recordDeadLetter, withMessageContext, type Bus, type Db, type Logger } from '@crewswap/kit';
import { EVENT_DATA, EventEnvelope, SUBJECTS } from '@crewswap/proto';
import { AckPolicy, DeliverPolicy, type JsMsg } from 'nats';
import type { DeliverPush } from '../push/deliver-push';

export const PUSH_DURABLE = 'notifications_push';
/** Push services answer within seconds; a stale push is dropped after PUSH_MAX_AGE_MS anyway. */
export const PUSH_BACKOFF_MS = [2_000, 10_000, 30_000, 60_000, 120_000] as const;
export const PUSH_MAX_DELIVER = 6;

/**
 * The push work queue: one durable consumer that every push-sender replica pulls from, so each
 * command goes to one of them. Up to `concurrency` commands are in flight at once (web push is
 * network-bound). A failed push is retried after a growing delay; after PUSH_MAX_DELIVER
 * deliveries it is recorded in dead_letters and dropped.
 */
export async function startPushConsumer(deps: { db: Db; bus: Bus; log: Logger; deliver: DeliverPush; concurrency: number }): Promise<{ stop(): Promise<void> }> {
  const { bus, log, db } = deps;
  const stream = bus.stream('NOTIFICATIONS');
  const config = {
    durable_name: PUSH_DURABLE,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: bus.subject(SUBJECTS.sendPush),
    ack_wait: 60_000 * 1_000_000,
    max_ack_pending: Math.max(1000, deps.concurrency * 4),
  };
  try {
    await bus.jsm.consumers.info(stream, PUSH_DURABLE);
    await bus.jsm.consumers.update(stream, PUSH_DURABLE, { filter_subject: config.filter_subject, max_ack_pending: config.max_ack_pending });
  } catch {
    await bus.jsm.consumers.add(stream, config);
  }
  noteConsumer(bus, stream, PUSH_DURABLE);
  const consumer = await bus.js.consumers.get(stream, PUSH_DURABLE);
  const messages = await consumer.consume({ max_messages: deps.concurrency });

  let inFlight = 0;
  let wake: (() => void) | undefined;
  const idle = new Set<Promise<void>>();

  async function giveUp(message: JsMsg, eventId: string | null, reason: string, payload: unknown): Promise<void> {
    await recordDeadLetter(db, { consumer: PUSH_DURABLE, eventId, subject: SUBJECTS.sendPush, deliveries: message.info.redeliveryCount, error: reason, payload });
    message.term();
  }

  async function handle(message: JsMsg): Promise<void> {
    let command: EventEnvelope;
    let data;
    try {
      command = EventEnvelope.parse(message.json());
      data = EVENT_DATA[SUBJECTS.sendPush].parse(command.data);
    } catch (error) {
      log.error({ err: error }, 'dropping a push command that does not match its schema');
      await giveUp(message, null, String(error), { raw: message.string() }).catch(() => message.term());
      return;
    }
    const attempt = message.info.redeliveryCount;
    let reason: string;
    try {
      const outcome = await deps.deliver.execute({ id: command.id, occurredAt: command.occurredAt, data });
      if (outcome.result === 'done') {
        message.ack();
        return;
      }
      reason = outcome.reason;
    } catch (error) {
      reason = (error as Error).message;
    }
    if (attempt >= PUSH_MAX_DELIVER) {
      log.error({ eventId: command.id, attempt, reason }, 'push failed for the last time; recorded as a dead letter');
      await giveUp(message, command.id, reason, command).catch(() => message.nak(backoffDelay(PUSH_BACKOFF_MS, attempt)));
      return;
    }
    log.warn({ eventId: command.id, attempt, reason }, 'push failed; will retry');
    message.nak(backoffDelay(PUSH_BACKOFF_MS, attempt));
  }

  const done = (async () => {
    for await (const message of messages) {
      while (inFlight >= deps.concurrency) await new Promise<void>((resolve) => (wake = resolve));
      inFlight += 1;
      // The push is sent in the trace of the change that asked for it.
      const work = withMessageContext(message.headers, `consume ${SUBJECTS.sendPush}`, () => handle(message))
        .catch((error: unknown) => log.error({ err: error }, 'push command handling failed'))
        .finally(() => {
          inFlight -= 1;
          idle.delete(work);
          wake?.();
          wake = undefined;
        });
      idle.add(work);
    }
  })();

  return {
    async stop() {
      await messages.close();
      wake?.();
      await done;
      await Promise.all([...idle]);
    },
  };
}
