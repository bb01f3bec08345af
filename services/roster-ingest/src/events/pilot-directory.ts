import { followPilots, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import type { Logger } from 'pino';
import type { PilotRepository } from '../data/pilots';

/** roster-ingest's projection of auth's pilots, to know who sent a mail and where they are based. */
export function startPilotDirectory(deps: { db: Db; bus: Bus; log: Logger; pilots: PilotRepository }): Promise<RunningConsumer> {
  const { pilots } = deps;
  return followPilots({
    ...deps,
    durable: 'roster_ingest_pilot_directory',
    profile: (pilot, occurredAt, trx) => pilots.applyProfile(pilot, occurredAt, trx),
    deleted: ({ pilotId, employeeId }, occurredAt, trx) => pilots.applyDeletion(pilotId, employeeId, occurredAt, trx),
  });
}
