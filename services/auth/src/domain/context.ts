import type { Bus, Clock, Db, Executor, Outbox, Runtime, SessionGuard, SettingsClient } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Config } from '../config';
import { createDeletedPilotRepository } from '../data/deleted-pilots';
import { createLoginAttemptRepository } from '../data/login-attempts';
import { createPilotRepository, toPilot, type PilotRecord } from '../data/pilots';
import { createSessionRepository } from '../data/sessions';
import { createSystemStateRepository } from '../data/system-state';
import { createVerificationRepository } from '../data/verification';
import { createPasswords, type Passwords } from './passwords';

/** Everything the use cases work with; built once per app. */
export interface AuthContext {
  config: Config;
  clock: Clock;
  log: Runtime['log'];
  db: Db;
  bus: Bus;
  outbox: Outbox;
  guard: SessionGuard;
  settings: SettingsClient;
  passwords: Passwords;
  privateKey: string;
  repos: ReturnType<typeof createRepositories>;
}

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

export function createContext(runtime: Runtime, config: Config, clock: Clock, settings: SettingsClient): AuthContext {
  if (!runtime.keys.privateKey) throw new Error('auth signs pilot sessions and needs JWT_PRIVATE_KEY (or SIGNING_KEYS_DIR)');
  return {
    config,
    clock,
    log: runtime.log,
    db: runtime.db,
    bus: runtime.bus,
    outbox: runtime.outbox,
    guard: runtime.guard,
    settings,
    passwords: createPasswords(config.PASSWORD_HASH_COST),
    privateKey: runtime.keys.privateKey,
    repos: createRepositories(runtime.db),
  };
}

/** Runs `fn` once the transaction has committed (at once outside a transaction); never on rollback. */
export function afterCommit(trx: Executor, fn: () => void): void {
  const execution = (trx as { executionPromise?: Promise<unknown> }).executionPromise;
  if (execution) execution.then(fn, () => undefined);
  else fn();
}

/** The same calendar day a year later (29 February becomes 1 March). */
export function addYears(isoDate: string, years: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y + years, m - 1, d)).toISOString().slice(0, 10);
}

type ProfileSubject = typeof SUBJECTS.pilotRegistered | typeof SUBJECTS.pilotUpdated;

/** Every profile change goes out with the whole public profile, versioned by the row. */
export async function publishProfile(ctx: AuthContext, trx: Executor, subject: ProfileSubject, record: PilotRecord): Promise<void> {
  await ctx.outbox.write(trx, subject, { pilot: toPilot(record) }, record.version);
}

export async function settingNumber(ctx: AuthContext, key: 'session_timeout_minutes', fallback: number): Promise<number> {
  const value = Number(await ctx.settings.get(key));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Emails are compared lower case and without spaces (the app strips them from the login field too). */
export const normaliseEmail = (email: string) => email.replace(/\s/g, '').toLowerCase();
