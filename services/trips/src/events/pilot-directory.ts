import { startConsumer, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import type { PilotRepository } from '../data/pilots';
import type { TripRepository } from '../data/trips';
import type { TripEvents } from '../domain/events';

export const DIRECTORY_DURABLE = 'trips_pilot_directory';

/**
 * The pilot directory: auth's profile events, applied newest-wins (a redelivered or late event
 * changes nothing). A deleted pilot's trips go with them, each deletion published.
 */
export function startPilotDirectory(deps: { db: Db; bus: Bus; log: Logger; pilots: PilotRepository; trips: TripRepository; events: TripEvents }): Promise<RunningConsumer> {
  const { pilots, trips, events } = deps;
  return startConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'AUTH',
    durable: DIRECTORY_DURABLE,
    filter: 'auth.pilot.>',
    subjects: [SUBJECTS.pilotRegistered, SUBJECTS.pilotUpdated, SUBJECTS.pilotDeleted],
    handle: async (event, trx) => {
      if (event.type === SUBJECTS.pilotDeleted) {
        const { pilotId, employeeId } = event.data;
        if (!(await pilots.applyDeletion(pilotId, employeeId, event.occurredAt, trx))) return;
        // Only trips from before the deletion: a replay must not take trips of a restored account.
        const removed = await trips.deleteWhere(
          (query) => query.where({ pilot_id: pilotId }).where('created_at', '<=', event.occurredAt),
          trx,
        );
        for (const { trip, version } of removed) await events.deleted(trx, trip, version);
        return;
      }
      await pilots.applyProfile(event.data.pilot, event.occurredAt, trx);
    },
  });
}

/**
 * Rebuilds the directory from the AUTH stream: forgets the consumer and what it applied, so the
 * next start replays every pilot event from the beginning. Trips are left alone.
 */
export async function resetPilotDirectory(deps: { db: Db; bus: Bus; pilots: PilotRepository }): Promise<void> {
  await deps.bus.jsm.consumers.delete(deps.bus.stream('AUTH'), DIRECTORY_DURABLE).catch(() => undefined);
  await deps.db.transaction(async (trx) => {
    await trx('processed_events').where({ consumer: DIRECTORY_DURABLE }).delete();
    await deps.pilots.clear(trx);
  });
}
