import { startPeriodic, startService, type ServiceOptions } from '@crewswap/kit';
import type { Config } from './config';
import { createAlertsRepository } from './data/alerts';
import { createDigestRepository } from './data/digest';
import { startOfferIndex } from './data/offer-index';
import { startRosterCache } from './data/roster-cache';
import { createReadModelRepository } from './data/read-model';
import { createWishRepository } from './data/wishes';
import { createAlertOffer } from './domain/alert-offer';
import { createDigest } from './domain/digest';
import { createFindMatches } from './domain/find-matches';
import { createPushAlert } from './domain/push-alert';
import { createWishes } from './domain/wishes';
import { nothingOnItsWay, readUntil, waitUntilCaughtUp } from './events/catch-up';
import { ASK_FEEDS, DURABLES, startReadModelConsumers } from './events/consumers';
import { startOfferViews } from './events/offer-views';
import { readSettingsFromAdmin } from './events/replay';
import { createReadModelMetrics, trackOfferIndex } from './metrics';
import { migrations } from './migrations';
import { registerTripRoutes } from './routes/trips';
import { createProposalRepository } from './data/proposals';
import { createAcceptProposal, createCounterProposal, createDeclineProposal } from './domain/proposals/answer-proposal';
import { createCancelAgreement, createCancelProposal } from './domain/proposals/close-swap';
import { createProposalEvents } from './domain/proposals/events';
import { createExpireProposals } from './domain/proposals/expire-proposals';
import { createProposeSwap } from './domain/proposals/propose-swap';
import { createSwapCheck } from './domain/swap-legality';
import { createGiveawayRepository } from './data/giveaways';
import { createListGiveaways } from './domain/list-giveaways';
import { registerGiveawayRoutes } from './routes/giveaways';
import { createSwapSides } from './domain/proposals/sides';
import { registerProposalRoutes } from './routes/proposals';
import { registerWishRoutes } from './routes/wishes';
import { createSwapRequestRepository } from './data/swap-requests';
import { createApproveSwapRequest, createListSwapRequests, createRefuseSwapRequest } from './domain/crewing/swap-requests';
import { registerSwapRequestRoutes } from './routes/swap-requests';

/** Trip tombstones are kept this long after the deletion (docs/DECISIONS.md, "Growing tables"). */
export const TOMBSTONE_RETENTION_DAYS = 30;

export function createApp(config: Config, options: ServiceOptions = {}) {
  return startService({ name: 'swaps', schema: 'swaps', migrations, config, options }, async ({ app, runtime, clock }) => {
    const { db, bus, log } = runtime;
    const readModel = createReadModelRepository(db);
    const offers = await startOfferIndex({ db, connectionString: config.DATABASE_URL, log });
    runtime.onClose(() => offers.close());
    trackOfferIndex(app.metrics.registry, offers);
    const rosters = await startRosterCache({ db, connectionString: config.DATABASE_URL, log, maxPilots: config.ROSTER_CACHE_PILOTS, read: (ids) => readModel.rosters(ids) });
    runtime.onClose(() => rosters.close());
    const alerts = createAlertsRepository();
    const metrics = createReadModelMetrics({ registry: app.metrics.registry, bus, durable: DURABLES.trips });
    const wishes = createWishRepository(db);
    const alertOffer = createAlertOffer({ readModel, wishes, alerts, outbox: runtime.outbox, clock, log });
    const proposals = createProposalRepository(db);
    const proposalEvents = createProposalEvents(runtime.outbox);
    const expireProposals = createExpireProposals({ proposals, events: proposalEvents, outbox: runtime.outbox, clock });
    await startReadModelConsumers({ runtime, readModel, alertOffer, expireProposals, metrics, clock, alertMaxAgeMs: config.OFFER_ALERT_MAX_AGE_MINUTES * 60_000 });
    const pruner = startPeriodic({
      name: 'prune trip tombstones',
      log,
      intervalMs: 60 * 60 * 1000,
      task: () => readModel.pruneTombstones(new Date(clock.now().getTime() - TOMBSTONE_RETENTION_DAYS * 24 * 60 * 60 * 1000)),
    });
    runtime.onClose(() => pruner.stop());
    const expirer = startPeriodic({ name: 'expire started proposals', log, intervalMs: 10 * 60 * 1000, task: () => db.transaction((trx) => expireProposals.started(trx)) });
    runtime.onClose(() => expirer.stop());
    const digest = createDigest({
      db,
      digests: createDigestRepository(db),
      readModel,
      wishes,
      outbox: runtime.outbox,
      clock,
      origin: config.APP_ORIGIN,
      product: config.PRODUCT_NAME,
    });
    const digests = startPeriodic({ name: 'daily digest', log, intervalMs: 60_000, task: () => digest.execute() });
    runtime.onClose(() => digests.stop());
    /** Settles when the start-up read of admin's settings has been tried. */
    const settingsRead = readSettingsFromAdmin({ bus, log, readModel, clock, settingsTimeoutMs: config.SETTINGS_RPC_TIMEOUT_MS, ex: db });
    runtime.onClose(() => settingsRead.then(() => undefined));
    const pushAlert = createPushAlert({
      db,
      readModel,
      alertOffer,
      catchUpWithTrips: () => waitUntilCaughtUp(bus, 'TRIPS', DURABLES.trips, config.TRIPS_CATCH_UP_MS),
    });
    const offerViews = await startOfferViews({ runtime, clock });
    const awaitTrips = <T>(read: () => Promise<T>, found: (value: T) => boolean) => readUntil(read, found, config.TRIPS_CATCH_UP_MS, () => nothingOnItsWay(bus, ASK_FEEDS));
    registerTripRoutes(app, { guard: runtime.guard, findMatches: createFindMatches({ readModel, offers, rosters, clock, awaitTrips }), pushAlert, offerViews });
    const sides = createSwapSides({ proposals, clock });
    const giveaways = createGiveawayRepository(db);
    registerGiveawayRoutes(app, { guard: runtime.guard, listGiveaways: createListGiveaways({ giveaways, clock, awaitTrips }) });
    const answerDeps = { db, proposals, events: proposalEvents, clock };
    const swapCheck = createSwapCheck({ read: (ids, ex) => readModel.rostersAndLimits(ids, ex) });
    const proposalUseCases = {
      proposeSwap: createProposeSwap({ ...answerDeps, giveaways, sides, awaitTrips, swapCheck }),
      acceptProposal: createAcceptProposal({ ...answerDeps, swapCheck }),
      declineProposal: createDeclineProposal(answerDeps),
      counterProposal: createCounterProposal({ ...answerDeps, sides }),
      cancelProposal: createCancelProposal(answerDeps),
      cancelAgreement: createCancelAgreement(answerDeps),
    };
    registerWishRoutes(app, { guard: runtime.guard, wishes: createWishes({ db, wishes, readModel, offers, clock }) });
    registerProposalRoutes(app, { guard: runtime.guard, proposals, useCases: proposalUseCases, now: () => clock.now() });
    const requests = createSwapRequestRepository(db);
    const deskDeps = { db, requests, proposals, outbox: runtime.outbox, clock, swapCheck };
    const swapRequests = { list: createListSwapRequests(deskDeps), approve: createApproveSwapRequest(deskDeps), refuse: createRefuseSwapRequest(deskDeps) };
    registerSwapRequestRoutes(app, { guard: runtime.guard, useCases: swapRequests });
    return { readModel, offers, rosters, alerts, alertOffer, settingsRead, proposals, proposalUseCases, swapRequests, expireProposals, offerViews, digest };
  });
}
export type SwapsService = Awaited<ReturnType<typeof createApp>>;
