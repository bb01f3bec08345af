import type { DigestPreference, NotificationPreferences, QuietHours } from '@crewswap/proto';

/** Issue 39's preferences as notification_preferences stores them (migration 0003_alerts). */
export interface AlertPreferenceRow {
  urgent: boolean | null;
  quiet_hours: QuietHours | null;
  digest: DigestPreference | null;
}

export function alertPreferencesOf(row: Partial<AlertPreferenceRow>): Pick<NotificationPreferences, 'urgent' | 'quietHours' | 'digest'> {
  return { urgent: row.urgent ?? true, quietHours: row.quiet_hours ?? null, digest: row.digest ?? null };
}

export function alertPreferenceColumns(preferences: Pick<NotificationPreferences, 'urgent' | 'quietHours' | 'digest'>) {
  return {
    urgent: preferences.urgent,
    quiet_hours: preferences.quietHours ? JSON.stringify(preferences.quietHours) : null,
    digest: preferences.digest ? JSON.stringify(preferences.digest) : null,
  };
}
