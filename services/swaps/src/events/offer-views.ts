import { startDurableConsumer, startPeriodic, type Clock, type Runtime } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import { createOfferViewRepository, RECORD_AGAIN_AFTER_MS } from '../data/offer-views';
import { createRecentViews } from '../data/recent-views';
import type { ShownOffers } from '../domain/find-matches';
import { createOfferWithdrawn, OFFER_VIEW_DAYS } from '../domain/offer-withdrawn';

/** The viewers' consumer, apart from the read model's. */
export const OFFER_VIEWS_DURABLE = 'swaps_offer_withdrawals';

/**
 * Remembers who found which offer in Find swaps (a day), and tells them when a roster import
 * takes it away: a durable consumer of its own on trips' updates and deletions, beside the read
 * model's, so neither waits for the other.
 */
export async function startOfferViews(deps: { runtime: Runtime; clock: Clock }) {
  const { runtime, clock } = deps;
  const { db, bus, log } = runtime;
  const views = createOfferViewRepository(db);
  const withdrawn = createOfferWithdrawn({ views, outbox: runtime.outbox, clock });
  const consumer = await startDurableConsumer({
    db,
    bus,
    log,
    stream: 'TRIPS',
    durable: OFFER_VIEWS_DURABLE,
    filter: 'trips.trip.>',
    subjects: [SUBJECTS.tripUpdated, SUBJECTS.tripDeleted],
    handler: {
      apply: async (event, _prepared, trx) => {
        if (event.type === SUBJECTS.tripDeleted) {
          await withdrawn.execute(trx, { tripId: event.data.tripId, trip: event.data.trip, origin: event.data.origin });
        } else if (!event.data.trip.isSwappable) {
          await withdrawn.execute(trx, { tripId: event.data.trip.id, trip: event.data.trip, origin: event.data.origin });
        }
      },
    },
  });
  runtime.onClose(() => consumer.stop());
  const pruner = startPeriodic({
    name: 'prune offer views',
    log,
    intervalMs: 60 * 60 * 1000,
    task: () => views.prune(new Date(clock.now().getTime() - OFFER_VIEW_DAYS * 24 * 60 * 60 * 1000)),
  });
  runtime.onClose(() => pruner.stop());

  const recent = createRecentViews({ recordAgainAfterMs: RECORD_AGAIN_AFTER_MS });
  const sweeper = startPeriodic({
    name: 'forget stale recent views',
    log,
    intervalMs: 10 * 60 * 1000,
    task: async () => recent.forgetStale(clock.now()),
  });
  runtime.onClose(() => sweeper.stop());

  return {
    views,
    /**
     * Records the offers a Find swaps answer showed the pilot; after the answer, never delaying
     * it. Views this replica recorded within the hour for the same answer are left out, and when
     * that is all of them Postgres is not asked.
     */
    async seen(pilotId: string, shown: ShownOffers): Promise<void> {
      const at = clock.now();
      const { held } = shown;
      const missing = held && recent.unrecorded(held.answer, held.versions, at);
      const tripIds = missing ? missing.map((i) => shown.tripIds[i]!) : shown.tripIds;
      if (tripIds.length === 0) return;
      try {
        await views.record(pilotId, tripIds, at);
        if (held) recent.remember(held.answer, held.versions, at);
      } catch (error) {
        log.warn({ err: error }, 'could not record the offers a pilot found');
      }
    },
  };
}
export type OfferViews = Awaited<ReturnType<typeof startOfferViews>>;
