import { followPilots, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import type { Logger } from 'pino';
import type { PilotRepository } from '../data/pilots';

export const DIRECTORY_DURABLE = 'links_pilot_directory';

/**
 * Pilot names from auth's profile events, applied newest-wins (a redelivered or late event
 * changes nothing). A deleted pilot's links and likes stay: links belong to every pilot.
 */
export function startPilotDirectory(deps: { db: Db; bus: Bus; log: Logger; pilots: PilotRepository }): Promise<RunningConsumer> {
  const { pilots } = deps;
  return followPilots({
    ...deps,
    durable: DIRECTORY_DURABLE,
    profile: (pilot, occurredAt, trx) => pilots.applyProfile(pilot, occurredAt, trx),
    deleted: ({ pilotId }, occurredAt, trx) => pilots.applyDeletion(pilotId, occurredAt, trx),
  });
}
