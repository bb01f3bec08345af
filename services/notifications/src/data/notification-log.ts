import type { Db, Executor } from '@crewswap/kit';

/** Notifications sent to pilots (table `notification_log`, written by the push sender). */
export function createNotificationLog(db: Db) {
  return {
    async deleteSentBefore(cutoff: Date, trx: Executor = db): Promise<number> {
      return trx('notification_log').where('sent_at', '<', cutoff).delete();
    },
  };
}
export type NotificationLog = ReturnType<typeof createNotificationLog>;
