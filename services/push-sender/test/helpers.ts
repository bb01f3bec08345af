import { deleteStreams, generateVapidKeys, type Clock } from '@crewswap/kit';
import { createTestDatabase, startService, testBaseConfig, uniqueName } from '@crewswap/kit-testing';
import { SUBJECTS, type EventDataMap } from '@crewswap/proto';
import { createApp, type PushSender } from '../src/app';
import { configSchema } from '../src/config';
import { startPushService } from './support/push-service';

/**
 * push-sender as it runs: beside notifications (started through its package), which owns the
 * schema, takes the pilots' subscriptions and preferences and serves the bell; a push service of
 * our own on loopback http checks every push it is sent. Commands are written to an outbox as
 * every service asks for a push.
 */
export async function startPushSender(clock: Clock) {
  const database = await createTestDatabase();
  const vapid = generateVapidKeys();
  const subject = 'mailto:push-test@crewswap.local';
  const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: subject };
  const base = { ...testBaseConfig(database.url, uniqueName('t')), PORT: 0 };
  const notifications = await startService('notifications', base, { env: { ...env, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' }, options: { clock } });
  const sender: PushSender = await createApp({ ...configSchema.parse(env), ...base }, { clock });
  const push = await startPushService({ publicKey: vapid.publicKey, subject });
  const { db, outbox } = notifications.runtime;
  return {
    notifications,
    sender,
    push,
    base,
    /** Asks for a push the way every service does: through its outbox, in a transaction. */
    requestPush: (command: EventDataMap[typeof SUBJECTS.sendPush]) => db.transaction((trx) => outbox.write(trx, SUBJECTS.sendPush, command)),
    /** The statuses of the pilot's push commands in the notification log, oldest first. */
    statuses: (pilotId: string): Promise<string[]> => db('notification_log').where({ pilot_id: pilotId }).orderBy('created_at').pluck('status'),
    async stop() {
      await sender.close();
      await push.close();
      await deleteStreams(notifications.runtime.bus);
      await notifications.close();
      await database.drop();
    },
  };
}
export type TestPushSender = Awaited<ReturnType<typeof startPushSender>>;
