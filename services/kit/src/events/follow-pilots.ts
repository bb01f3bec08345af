import { SUBJECTS, type Pilot, type PilotDeletedEvent } from '@crewswap/proto';
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Db, Trx } from '../data/db';
import { startDurableConsumer, type RunningConsumer } from '.';
import type { Bus } from './nats';

export interface FollowPilotsOptions {
  db: Db;
  bus: Bus;
  log: Logger;
  /** The service's own durable name, e.g. 'links_pilot_directory'. */
  durable: string;
  /** A registered or updated pilot's whole public profile; apply it newest-wins by `occurredAt`. */
  profile(pilot: Pilot, occurredAt: string, trx: Trx): Promise<unknown>;
  /** A deleted pilot; apply it newest-wins by `occurredAt`. */
  deleted(pilot: z.output<typeof PilotDeletedEvent>, occurredAt: string, trx: Trx): Promise<unknown>;
}

/**
 * A service's own copy of auth's pilots: the profile and deletion events of `auth.pilot.>`, each
 * applied in a transaction with the record that it was (a redelivery changes nothing).
 */
export function followPilots(options: FollowPilotsOptions): Promise<RunningConsumer> {
  return startDurableConsumer({
    db: options.db,
    bus: options.bus,
    log: options.log,
    stream: 'AUTH',
    durable: options.durable,
    filter: 'auth.pilot.>',
    subjects: [SUBJECTS.pilotRegistered, SUBJECTS.pilotUpdated, SUBJECTS.pilotDeleted],
    handler: {
      apply: async (event, _prepared, trx) => {
        if (event.type === SUBJECTS.pilotDeleted) await options.deleted(event.data, event.occurredAt, trx);
        else await options.profile(event.data.pilot, event.occurredAt, trx);
      },
    },
  });
}
