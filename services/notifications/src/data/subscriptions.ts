import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '@crewswap/kit';
import type { NotificationPreferences, PushSubscriptionBody } from '@crewswap/proto';
import { alertPreferencesOf, type AlertPreferenceRow } from './alert-preferences';

export interface StoredSubscription {
  id: string;
  pilotId: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const toSubscription = (row: { id: string; pilot_id: string; endpoint: string; p256dh: string; auth: string }): StoredSubscription => ({
  id: row.id,
  pilotId: row.pilot_id,
  endpoint: row.endpoint,
  keys: { p256dh: row.p256dh, auth: row.auth },
});

export function createSubscriptionRepository(db: Db) {
  return {
    /** Saves the browser's subscription for the pilot; the same endpoint again replaces its keys and owner. */
    async save(pilotId: string, body: PushSubscriptionBody, trx: Executor = db): Promise<void> {
      await trx('push_subscriptions')
        .insert({ id: randomUUID(), pilot_id: pilotId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth })
        .onConflict('endpoint')
        .merge(['pilot_id', 'p256dh', 'auth']);
    },
    async forPilot(pilotId: string, trx: Executor = db): Promise<StoredSubscription[]> {
      return (await trx('push_subscriptions').where({ pilot_id: pilotId }).orderBy('created_at')).map(toSubscription);
    },
    /** The pilot's subscriptions and notification preferences, in one trip to the database. */
    async withPreferences(pilotId: string, trx: Executor = db): Promise<{ subscriptions: StoredSubscription[]; preferences: NotificationPreferences | null }> {
      const { rows } = await trx.raw<{
        rows: ({ id: string | null; pilot_id: string; endpoint: string; p256dh: string; auth: string; enabled: boolean | null; swap_notifications: boolean | null; whatsapp_group_alerts: boolean | null; swap_proposals: boolean | null } & AlertPreferenceRow)[];
      }>(
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
          ? { enabled: first.enabled, swapNotifications: first.swap_notifications!, whatsappGroupAlerts: first.whatsapp_group_alerts!, swapProposals: first.swap_proposals!, ...alertPreferencesOf(first) }
          : null;
      return { subscriptions: rows.filter((row) => row.id !== null).map((row) => toSubscription({ ...row, id: row.id! })), preferences };
    },
    async countForPilot(pilotId: string, trx: Executor = db): Promise<number> {
      const row = await trx('push_subscriptions').where({ pilot_id: pilotId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async removeForPilot(pilotId: string, trx: Executor = db): Promise<number> {
      return trx('push_subscriptions').where({ pilot_id: pilotId }).delete();
    },
    /** The push service says the subscription is gone (404/410). */
    async remove(id: string, trx: Executor = db): Promise<void> {
      await trx('push_subscriptions').where({ id }).delete();
    },
    async removeAll(trx: Executor = db): Promise<number> {
      return trx('push_subscriptions').delete();
    },
  };
}
export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;
