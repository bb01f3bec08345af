import { requestRpc, type Bus, type Clock, type Db, type Executor, type Runtime } from '@crewswap/kit';
import { randomBytes } from 'node:crypto';
import { EVENT_DATA, EventEnvelope, GetSettingsReply, RPC, type EventDataMap, type StreamName } from '@crewswap/proto';
import { AckPolicy, DeliverPolicy } from 'nats';
import { stampOf, type ReadModelRepository } from '../data/read-model';
import { PILOT_SUBJECTS, pilotChangeOf, SETTING_SUBJECTS, SWAP_SEARCH_DAYS, TRIP_SUBJECTS, tripChangeOf } from './changes';

type Subject = keyof EventDataMap;
type Envelope<S extends Subject> = { [K in S]: EventEnvelope<EventDataMap[K]> & { type: K } }[S];

export interface RebuildReport {
  events: { pilots: number; trips: number; settings: number; unreadable: number };
  readModel: { pilots: number; trips: number; offers: number; tombstones: number };
  swapSearchDays: number;
  settingsFromAdmin: boolean;
  durationMs: number;
}

/**
 * Empties the read model and replays the pilot, trip and setting events from the start of their
 * streams, applying them by version exactly as the live consumers do, so the result is the state
 * those consumers reach. It runs in one transaction: readers see the old rows until it commits,
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
    const unreadable = { count: 0 };
    const pilots = await replay(bus, 'AUTH', 'auth.pilot.>', PILOT_SUBJECTS, unreadable, async (events) => {
      await readModel.applyPilotChanges(trx, events.map(pilotChangeOf));
    });
    const trips = await replay(bus, 'TRIPS', 'trips.trip.>', TRIP_SUBJECTS, unreadable, async (events) => {
      await readModel.applyTripChanges(trx, events.map(tripChangeOf));
    });
    const settings = await replay(bus, 'ADMIN', 'admin.settings.>', SETTING_SUBJECTS, unreadable, async (events) => {
      for (const event of events) {
        if (event.data.key === SWAP_SEARCH_DAYS) await readModel.applySetting(trx, event.data.key, event.data.value, stampOf(event).at);
      }
    });
    if (fromAdmin.value !== undefined) await readModel.applySetting(trx, SWAP_SEARCH_DAYS, fromAdmin.value, deps.clock.now());
    const settingsFromAdmin = fromAdmin.answered;
    return {
      events: { pilots, trips, settings, unreadable: unreadable.count },
      readModel: await readModel.counts(trx),
      swapSearchDays: await readModel.swapSearchDays(trx),
      settingsFromAdmin,
      durationMs: Date.now() - started,
    };
  });
}

/**
 * Reads every event under `filter` that the stream holds now, in order, in batches, through a
 * consumer of its own that is removed afterwards. Returns how many events were read.
 */
async function replay<S extends Subject>(
  bus: Bus,
  streamName: StreamName,
  filter: string,
  subjects: readonly S[],
  unreadable: { count: number },
  apply: (events: Envelope<S>[]) => Promise<void>,
): Promise<number> {
  const stream = bus.stream(streamName);
  const name = `swaps_replay_${randomBytes(6).toString('hex')}`;
  const info = await bus.jsm.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: bus.subject(filter),
    inactive_threshold: 60_000_000_000,
    mem_storage: true,
  });
  let remaining = info.num_pending;
  let read = 0;
  try {
    const consumer = await bus.js.consumers.get(stream, name);
    while (remaining > 0) {
      const batch = await consumer.fetch({ max_messages: Math.min(500, remaining), expires: 5000 });
      const events: Envelope<S>[] = [];
      let received = 0;
      for await (const message of batch) {
        received += 1;
        const subject = bus.unprefix(message.subject) as S;
        if (!subjects.includes(subject)) continue;
        try {
          const event = EventEnvelope.parse(message.json());
          event.data = EVENT_DATA[subject].parse(event.data);
          events.push(event as Envelope<S>);
        } catch {
          unreadable.count += 1;
        }
      }
      if (received === 0) throw new Error(`${streamName} stopped delivering with ${remaining} events still to replay`);
      remaining -= received;
      read += events.length;
      await apply(events);
    }
  } finally {
    await bus.jsm.consumers.delete(stream, name).catch(() => undefined);
  }
  return read;
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
