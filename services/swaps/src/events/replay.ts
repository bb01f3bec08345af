import { readStreamToEnd, requestRpc, type Bus, type Clock, type Db, type Executor, type Runtime } from '@crewswap/kit';
import { GetSettingsReply, RPC } from '@crewswap/proto';
import { stampOf, type ReadModelRepository } from '../data/read-model';
import { PILOT_SUBJECTS, pilotChangeOf, KEPT_SETTINGS, SETTING_SUBJECTS, SWAP_SEARCH_DAYS, TRIP_SUBJECTS, tripChangeOf } from './changes';

export interface RebuildReport {
  events: { pilots: number; trips: number; settings: number; unreadable: number };
  readModel: { pilots: number; trips: number; offers: number; tombstones: number };
  swapSearchDays: number;
  settingsFromAdmin: boolean;
  durationMs: number;
}

/**
 * Empties the read model and replays the pilot, trip and setting events from the start of their
 * streams (the kit's bounded read, `readStreamToEnd`), applying them by version exactly as the
 * live consumers do, so the result is the state those consumers reach. It runs in one transaction: readers see the old rows until it commits,
 * and a live consumer touching the same rows waits, then applies on top by version. Offers found
 * on the way are not alerted again.
 */
export async function rebuildReadModel(deps: {
  db: Db;
  bus: Bus;
  log: Runtime['log'];
  readModel: ReadModelRepository;
  clock: Clock;
  settingsTimeoutMs: number;
}): Promise<RebuildReport> {
  const { db, bus, readModel } = deps;
  const started = Date.now();
  // Asked first: no transaction stays open across a remote call.
  const fromAdmin = await askAdminForSearchDays(deps);
  return db.transaction(async (trx) => {
    await readModel.clear(trx);
    const pilots = await readStreamToEnd({
      bus,
      stream: 'AUTH',
      filter: 'auth.pilot.>',
      subjects: PILOT_SUBJECTS,
      handle: (events) => readModel.applyPilotChanges(trx, events.map(pilotChangeOf)),
    });
    const trips = await readStreamToEnd({
      bus,
      stream: 'TRIPS',
      filter: 'trips.trip.>',
      subjects: TRIP_SUBJECTS,
      handle: (events) => readModel.applyTripChanges(trx, events.map(tripChangeOf)),
    });
    const settings = await readStreamToEnd({
      bus,
      stream: 'ADMIN',
      filter: 'admin.settings.>',
      subjects: SETTING_SUBJECTS,
      handle: async (events) => {
        for (const event of events) {
          if (KEPT_SETTINGS.includes(event.data.key)) await readModel.applySetting(trx, event.data.key, event.data.value, stampOf(event).at);
        }
      },
    });
    if (fromAdmin.value !== undefined) await readModel.applySetting(trx, SWAP_SEARCH_DAYS, fromAdmin.value, deps.clock.now());
    const settingsFromAdmin = fromAdmin.answered;
    return {
      events: { pilots: pilots.read, trips: trips.read, settings: settings.read, unreadable: pilots.unreadable + trips.unreadable + settings.unreadable },
      readModel: await readModel.counts(trx),
      swapSearchDays: await readModel.swapSearchDays(trx),
      settingsFromAdmin,
      durationMs: Date.now() - started,
    };
  });
}

/**
 * Asks admin for the current swap_search_days once. Events only carry changes; a value admin
 * held before its stream existed reaches the projection this way. Nobody answering is fine: the
 * projection (or the default) stands, as it does when the answer cannot be written. Returns
 * whether admin answered.
 */
export async function readSettingsFromAdmin(deps: { bus: Bus; log: Runtime['log']; readModel: ReadModelRepository; clock: Clock; settingsTimeoutMs: number; ex: Executor }): Promise<boolean> {
  const asked = await askAdminForSearchDays(deps);
  if (asked.answered && asked.value !== undefined) {
    // Nobody awaits this read at start-up: a database away now must not become an unhandled
    // rejection, which ended the process. The projected value stands until admin's next change.
    try {
      await deps.readModel.applySetting(deps.ex, SWAP_SEARCH_DAYS, asked.value, deps.clock.now());
    } catch (error) {
      deps.log.warn({ err: error }, "could not keep admin's swap_search_days; keeping the projected one");
    }
  }
  return asked.answered;
}

/** Admin's current swap_search_days, asked over RPC (outside any transaction: it may take the whole timeout). */
async function askAdminForSearchDays(deps: { bus: Bus; log: Runtime['log']; settingsTimeoutMs: number }): Promise<{ answered: boolean; value?: string }> {
  if (deps.settingsTimeoutMs <= 0) return { answered: false };
  try {
    const values = await requestRpc(deps.bus, RPC.getSettings, {}, GetSettingsReply, deps.settingsTimeoutMs);
    return { answered: true, value: values[SWAP_SEARCH_DAYS] };
  } catch (error) {
    deps.log.info({ err: error }, 'admin did not answer the settings read; keeping the projected swap_search_days');
    return { answered: false };
  }
}
