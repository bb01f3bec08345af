import type { Db, Executor } from '@crewswap/kit';
import type { NotificationPreferences } from '@crewswap/proto';

/** A browser's push subscription, as notifications saved it. */
export interface StoredSubscription {
  id: string;
  pilotId: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

interface Row {
  id: string | null;
  pilot_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  enabled: boolean | null;
  swap_notifications: boolean;
  whatsapp_group_alerts: boolean;
  swap_proposals: boolean;
  urgent: boolean | null;
  quiet_hours: NotificationPreferences['quietHours'];
  digest: NotificationPreferences['digest'];
}

/**
 * What push-sender reads of notifications' push_subscriptions and notification_preferences
 * (notifications writes them and owns their migrations), and the one change it makes: forgetting
 * a device its push service says is gone.
 */
export function createSubscriptionReader(db: Db) {
  return {
    /** The pilot's subscriptions and notification preferences (null: never set), in one trip to the database. */
    async withPreferences(pilotId: string, trx: Executor = db): Promise<{ subscriptions: StoredSubscription[]; preferences: NotificationPreferences | null }> {
      const { rows } = await trx.raw<{ rows: Row[] }>(
        `SELECT s.id, s.pilot_id, s.endpoint, s.p256dh, s.auth, p.enabled, p.swap_notifications, p.whatsapp_group_alerts, p.swap_proposals, p.urgent, p.quiet_hours, p.digest
           FROM (SELECT CAST(? AS uuid) AS pilot_id) me
           LEFT JOIN push_subscriptions s ON s.pilot_id = me.pilot_id
           LEFT JOIN notification_preferences p ON p.pilot_id = me.pilot_id
          ORDER BY s.created_at`,
        [pilotId],
      );
      const first = rows[0];
      const preferences =
        first && first.enabled !== null
          ? {
              enabled: first.enabled,
              swapNotifications: first.swap_notifications,
              whatsappGroupAlerts: first.whatsapp_group_alerts,
              swapProposals: first.swap_proposals,
              urgent: first.urgent ?? true,
              quietHours: first.quiet_hours ?? null,
              digest: first.digest ?? null,
            }
          : null;
      const subscriptions = rows
        .filter((row) => row.id !== null)
        .map((row) => ({ id: row.id!, pilotId: row.pilot_id, endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }));
      return { subscriptions, preferences };
    },
    /** The push service says the subscription is gone (404/410). */
    async remove(id: string, trx: Executor = db): Promise<void> {
      await trx('push_subscriptions').where({ id }).delete();
    },
  };
}
export type SubscriptionReader = ReturnType<typeof createSubscriptionReader>;
