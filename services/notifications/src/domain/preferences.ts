import type { Clock, Db, Outbox } from '@crewswap/kit';
import { SUBJECTS, type NotificationPreferences, type UpdateNotificationPreferencesBody } from '@crewswap/proto';
import type { PreferenceRepository } from '../data/preferences';

export function createGetPreferences(deps: { preferences: PreferenceRepository }) {
  return {
    async execute(pilotId: string): Promise<NotificationPreferences> {
      return (await deps.preferences.find(pilotId)).preferences;
    },
  };
}

/**
 * Applies the fields sent and publishes the whole set, versioned per pilot, in the same
 * transaction: swaps keeps a projection of it to pick who gets swap alerts.
 */
export function createUpdatePreferences(deps: { db: Db; preferences: PreferenceRepository; outbox: Outbox; clock: Clock }) {
  return {
    async execute(pilotId: string, change: UpdateNotificationPreferencesBody): Promise<NotificationPreferences> {
      return deps.db.transaction(async (trx) => {
        const now = deps.clock.now();
        await deps.preferences.ensure(pilotId, now, trx);
        const current = await deps.preferences.find(pilotId, trx, true);
        const preferences: NotificationPreferences = { ...current.preferences, ...change };
        const version = current.version + 1;
        await deps.preferences.save(pilotId, preferences, version, now, trx);
        await deps.outbox.write(trx, SUBJECTS.notificationPreferencesChanged, { pilotId, preferences }, version);
        return preferences;
      });
    },
  };
}
