import { followPilots, removeDurableConsumer, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import type { Logger } from 'pino';
import type { CalendarFeedRepository } from '../data/calendar-feeds';
import type { PilotRepository } from '../data/pilots';
import type { TripRepository } from '../data/trips';
import type { TripEvents } from '../domain/events';

export const DIRECTORY_DURABLE = 'trips_pilot_directory';

/**
 * The pilot directory: auth's profile events, applied newest-wins (a redelivered or late event
 * changes nothing). A deleted pilot's trips go with them, each deletion published, and so does
 * their calendar feed.
 */
export function startPilotDirectory(deps: {
  db: Db;
  bus: Bus;
  log: Logger;
  pilots: PilotRepository;
  trips: TripRepository;
  feeds: CalendarFeedRepository;
  events: TripEvents;
}): Promise<RunningConsumer> {
  const { pilots, trips, feeds, events } = deps;
  return followPilots({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    durable: DIRECTORY_DURABLE,
    profile: (pilot, occurredAt, trx) => pilots.applyProfile(pilot, occurredAt, trx),
    deleted: async ({ pilotId, employeeId }, occurredAt, trx) => {
      if (!(await pilots.applyDeletion(pilotId, employeeId, occurredAt, trx))) return;
      // Only trips from before the deletion: a replay must not take trips of a restored account.
      const removed = await trips.deleteWhere((query) => query.where({ pilot_id: pilotId }).where('created_at', '<=', occurredAt), trx);
      for (const { trip, version } of removed) await events.deleted(trx, trip, version);
      await feeds.remove(pilotId, trx);
    },
  });
}

/**
 * Rebuilds the directory from the AUTH stream: forgets the consumer and what it applied, so the
 * next start replays every pilot event from the beginning. Trips are left alone.
 */
export async function resetPilotDirectory(deps: { db: Db; bus: Bus; pilots: PilotRepository }): Promise<void> {
  await removeDurableConsumer(deps.bus, 'AUTH', DIRECTORY_DURABLE);
  await deps.db.transaction(async (trx) => {
    await trx('processed_events').where({ consumer: DIRECTORY_DURABLE }).delete();
    await deps.pilots.clear(trx);
  });
}
