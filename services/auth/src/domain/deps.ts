import type { Clock, Db, Executor, Logger, Outbox, SessionGuard, SettingsClient } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Config } from '../config';
import { createDeletedPilotRepository } from '../data/deleted-pilots';
import { createLoginAttemptRepository } from '../data/login-attempts';
import { createPilotRepository, toPilot, type PilotRecord } from '../data/pilots';
import { createSessionRepository } from '../data/sessions';
import { createSystemStateRepository } from '../data/system-state';
import { createVerificationRepository } from '../data/verification';
import type { Passwords } from './passwords';

export function createRepositories(db: Db) {
  return {
    pilots: createPilotRepository(db),
    sessions: createSessionRepository(db),
    attempts: createLoginAttemptRepository(db),
    verification: createVerificationRepository(db),
    deleted: createDeletedPilotRepository(db),
    system: createSystemStateRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

/**
 * What auth's use cases may be given. Each takes only the fields it names (a `Pick` of this), so
 * its dependencies can be read off its signature.
 */
export interface AuthDeps {
  config: Pick<Config, 'COMPANY_EMAIL_DOMAIN' | 'PRODUCT_NAME' | 'APP_ORIGIN'>;
  clock: Clock;
  log: Logger;
  db: Db;
  outbox: Outbox;
  guard: SessionGuard;
  settings: Pick<SettingsClient, 'get'>;
  passwords: Passwords;
  repos: Repositories;
}

type ProfileSubject = typeof SUBJECTS.pilotRegistered | typeof SUBJECTS.pilotUpdated;

/** Every profile change goes out with the whole public profile, versioned by the row. */
export async function publishProfile(outbox: Outbox, trx: Executor, subject: ProfileSubject, record: PilotRecord): Promise<void> {
  await outbox.write(trx, subject, { pilot: toPilot(record) }, record.version);
}

/** Emails are compared lower case and without spaces (the app strips them from the login field too). */
export const normaliseEmail = (email: string) => email.replace(/\s/g, '').toLowerCase();
