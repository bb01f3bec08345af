import type { Db, Executor } from '@crewswap/kit';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '@crewswap/proto';
import { alertPreferenceColumns, alertPreferencesOf } from './alert-preferences';

export function createPreferenceRepository(db: Db) {
  return {
    /** The pilot's preferences (everything on for a pilot who never set them) and their version (0 then). */
    async find(pilotId: string, trx: Executor = db, lock = false): Promise<{ preferences: NotificationPreferences; version: number }> {
      const query = trx('notification_preferences').where({ pilot_id: pilotId }).first();
      const row = lock ? await query.forUpdate() : await query;
      if (!row) return { preferences: { ...DEFAULT_NOTIFICATION_PREFERENCES }, version: 0 };
      return {
        preferences: { enabled: row.enabled, swapNotifications: row.swap_notifications, whatsappGroupAlerts: row.whatsapp_group_alerts, swapProposals: row.swap_proposals, ...alertPreferencesOf(row) },
        version: row.version,
      };
    },
    /** Makes the pilot's row exist (defaults, version 0), so that a change can lock it. */
    async ensure(pilotId: string, at: Date, trx: Executor = db): Promise<void> {
      await trx('notification_preferences')
        .insert({
          pilot_id: pilotId,
          enabled: DEFAULT_NOTIFICATION_PREFERENCES.enabled,
          swap_notifications: DEFAULT_NOTIFICATION_PREFERENCES.swapNotifications,
          whatsapp_group_alerts: DEFAULT_NOTIFICATION_PREFERENCES.whatsappGroupAlerts,
          swap_proposals: DEFAULT_NOTIFICATION_PREFERENCES.swapProposals,
          version: 0,
          updated_at: at,
        })
        .onConflict('pilot_id')
        .ignore();
    },
    async save(pilotId: string, preferences: NotificationPreferences, version: number, at: Date, trx: Executor = db): Promise<void> {
      const row = {
        pilot_id: pilotId,
        enabled: preferences.enabled,
        swap_notifications: preferences.swapNotifications,
        whatsapp_group_alerts: preferences.whatsappGroupAlerts,
        swap_proposals: preferences.swapProposals,
        ...alertPreferenceColumns(preferences),
        version,
        updated_at: at,
      };
      await trx('notification_preferences').insert(row).onConflict('pilot_id').merge();
    },
  };
}
export type PreferenceRepository = ReturnType<typeof createPreferenceRepository>;
