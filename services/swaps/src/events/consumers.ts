import { afterCommit, startDurableConsumer, type Clock, type Runtime } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import { stampOf, type ReadModelRepository } from '../data/read-model';
import type { AlertOffer } from '../domain/alert-offer';
import type { ExpireProposals } from '../domain/proposals/expire-proposals';
import type { ReadModelMetrics } from '../metrics';
import type { Feed } from './catch-up';
import { PILOT_SUBJECTS, pilotChangeOf, SETTING_SUBJECTS, KEPT_SETTINGS, TRIP_SUBJECTS, tripChangeOf } from './changes';

/** Durable names: replicas share them, so each event is applied once across the service. */
export const DURABLES = { pilots: 'swaps_pilots', trips: 'swaps_trips', settings: 'swaps_settings', preferences: 'swaps_alert_preferences' } as const;

/** What Find swaps may wait for (a trip or a pilot it has not heard of yet): trips' trip events and auth's pilot events. */
export const ASK_FEEDS: readonly Feed[] = [
  { service: 'trips', subjects: TRIP_SUBJECTS, stream: 'TRIPS', durable: DURABLES.trips },
  { service: 'auth', subjects: PILOT_SUBJECTS, stream: 'AUTH', durable: DURABLES.pilots },
];

/**
 * Feeds the read model from auth, trips and admin. Each event is applied once by id (the kit's
 * processed_events) and by version, so a copy or an older update arriving late changes nothing.
 * A trip that becomes offered is fanned out to the pilots it suits in the same transaction.
 */
export async function startReadModelConsumers(deps: {
  runtime: Runtime;
  readModel: ReadModelRepository;
  alertOffer: AlertOffer;
  expireProposals: ExpireProposals;
  metrics: ReadModelMetrics;
  clock: Clock;
  alertMaxAgeMs: number;
}): Promise<void> {
  const { runtime, readModel, alertOffer, expireProposals, metrics, clock, alertMaxAgeMs } = deps;
  const isNews = (event: { occurredAt: string }) => !(clock.now().getTime() - Date.parse(event.occurredAt) > alertMaxAgeMs);
  const { db, bus, log } = runtime;

  const pilots = await startDurableConsumer({
    db,
    bus,
    log,
    stream: 'AUTH',
    durable: DURABLES.pilots,
    filter: 'auth.pilot.>',
    subjects: PILOT_SUBJECTS,
    handler: {
      apply: async (event, _prepared, trx) => {
        await readModel.applyPilotChanges(trx, [pilotChangeOf(event)]);
      },
    },
  });
  runtime.onClose(() => pilots.stop());

  const trips = await startDurableConsumer({
    db,
    bus,
    log,
    stream: 'TRIPS',
    durable: DURABLES.trips,
    filter: 'trips.trip.>',
    subjects: TRIP_SUBJECTS,
    handler: {
      apply: async (event, _prepared, trx) => {
        const change = tripChangeOf(event);
        const applied = await readModel.applyTripChanges(trx, [change]);
        // The cleanup deletes as the system; a pilot's own deletion keeps the swap history.
        const purged = event.type === SUBJECTS.tripDeleted && event.data.origin?.channel === 'system';
        if (applied.length > 0) await expireProposals.tripChanged(trx, change, purged);
        // An offer that arrives after a newer change of its trip, or long after it was made, is history.
        if (event.type === SUBJECTS.tripOffered && applied.length > 0 && isNews(event)) {
          const { alerted } = await alertOffer.execute(trx, { tripId: event.data.trip.id });
          afterCommit(trx, () => metrics.alertsSent.inc(alerted));
        }
        metrics.tripEventApplied(event.occurredAt);
      },
    },
  });
  runtime.onClose(() => trips.stop());

  const settings = await startDurableConsumer({
    db,
    bus,
    log,
    stream: 'ADMIN',
    durable: DURABLES.settings,
    filter: 'admin.settings.>',
    subjects: SETTING_SUBJECTS,
    handler: {
      apply: async (event, _prepared, trx) => {
        if (KEPT_SETTINGS.includes(event.data.key)) await readModel.applySetting(trx, event.data.key, event.data.value, stampOf(event).at);
      },
    },
  });
  runtime.onClose(() => settings.stop());

  const preferences = await startDurableConsumer({
    db,
    bus,
    log,
    stream: 'NOTIFICATIONS',
    durable: DURABLES.preferences,
    filter: 'notifications.preferences.>',
    subjects: [SUBJECTS.notificationPreferencesChanged],
    handler: {
      apply: async (event, _prepared, trx) => {
        const { pilotId, preferences: chosen } = event.data;
        await readModel.applyAlertPreferences(trx, { pilotId, swapAlerts: chosen.enabled && chosen.swapNotifications, digest: chosen.digest, version: event.version });
      },
    },
  });
  runtime.onClose(() => preferences.stop());
}
