import type { Clock } from '@crewswap/kit';
import type { NotificationLog } from '../data/notification-log';

/** Cleanup's part here: notifications sent more than `retentionDays` days ago are deleted. */
export function createPurgeNotifications(deps: { log: NotificationLog; clock: Clock }) {
  return {
    async execute(input: { retentionDays: number }): Promise<{ notificationsDeleted: number }> {
      const cutoff = new Date(deps.clock.now().getTime() - input.retentionDays * 24 * 60 * 60 * 1000);
      return { notificationsDeleted: await deps.log.deleteSentBefore(cutoff) };
    },
  };
}
export type PurgeNotifications = ReturnType<typeof createPurgeNotifications>;
