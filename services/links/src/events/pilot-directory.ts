import { startConsumer, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import type { PilotRepository } from '../data/pilots';

export const DIRECTORY_DURABLE = 'links_pilot_directory';

/**
 * Pilot names from auth's profile events, applied newest-wins (a redelivered or late event
 * changes nothing). A deleted pilot's links and likes stay: links belong to every pilot.
 */
export function startPilotDirectory(deps: { db: Db; bus: Bus; log: Logger; pilots: PilotRepository }): Promise<RunningConsumer> {
  const { pilots } = deps;
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
        await pilots.applyDeletion(event.data.pilotId, event.occurredAt, trx);
        return;
      }
      await pilots.applyProfile(event.data.pilot, event.occurredAt, trx);
    },
  });
}
