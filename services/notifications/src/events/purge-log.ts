import { serveRpc, type Bus, type Clock, type Db, type Logger } from '@crewswap/kit';
import { PurgeTripsRequest, RPC } from '@crewswap/proto';

/** Admin's cleanup run deletes the notification log older than its retention, as it does trips. */
export function startLogPurgeRpc(deps: { db: Db; bus: Bus; log: Logger; clock: Clock }) {
  return serveRpc({
    bus: deps.bus,
    log: deps.log,
    subject: RPC.purgeNotifications,
    request: PurgeTripsRequest,
    handle: async ({ retentionDays }) => {
      const cutoff = new Date(deps.clock.now().getTime() - retentionDays * 24 * 3600 * 1000);
      const notificationsDeleted = await deps.db('notification_log').where('created_at', '<', cutoff).delete();
      return { notificationsDeleted };
    },
  });
}
