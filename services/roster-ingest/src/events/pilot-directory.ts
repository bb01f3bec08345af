import { startConsumer, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import type { PilotRepository } from '../data/pilots';

/** roster-ingest's projection of auth's pilots, to know who sent a mail and where they are based. */
export function startPilotDirectory(deps: { db: Db; bus: Bus; log: Logger; pilots: PilotRepository }): Promise<RunningConsumer> {
  return startConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'AUTH',
    durable: 'roster_ingest_pilot_directory',
    filter: 'auth.pilot.>',
    subjects: [SUBJECTS.pilotRegistered, SUBJECTS.pilotUpdated, SUBJECTS.pilotDeleted],
    handle: async (event, trx) => {
      if (event.type === SUBJECTS.pilotDeleted) {
        await deps.pilots.applyDeletion(event.data.pilotId, event.data.employeeId, event.occurredAt, trx);
        return;
      }
      await deps.pilots.applyProfile(event.data.pilot, event.occurredAt, trx);
    },
  });
}
