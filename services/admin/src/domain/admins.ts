import { conflict, forbidden, isUniqueViolation, notFound, type AdminSession, type Clock, type Db, type Executor, type Outbox, type SessionGuard } from '@crewswap/kit';
import { PERMISSIONS, SUBJECTS, type Admin, type Permission } from '@crewswap/proto';
import type { AdminRepository } from '../data/admin-repository';

/** What the administrator use cases are made of. */
export interface AdminDeps {
  db: Db;
  admins: AdminRepository;
  outbox: Outbox;
  guard: SessionGuard;
  clock: Clock;
}

export const ADMIN_EMAIL_TAKEN = 'An admin with this email already exists';

/** Two saves of one email raced past the emailTaken check: the unique index decides, in the same words. */
export async function emailTakenOnRace<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error, 'email')) throw conflict(ADMIN_EMAIL_TAKEN);
    throw error;
  }
}

/** A master admin holds every permission; others keep their subset, each key once, in the spec's order. */
export function permissionsFor(isMasterAdmin: boolean, permissions: Permission[]): Permission[] {
  return isMasterAdmin ? [...PERMISSIONS] : PERMISSIONS.filter((key) => permissions.includes(key));
}

export const samePermissions = (a: Admin, isMasterAdmin: boolean, permissions: Permission[]) =>
  a.isMasterAdmin === isMasterAdmin && a.permissions.length === permissions.length && a.permissions.every((key, i) => key === permissions[i]);

/** The admin spec's rule for edit and set-password: a master admin, or manage_admins acting on a non-master. */
export function assertMayEdit(actor: AdminSession, target: Admin): void {
  if (target.isMasterAdmin && !actor.isMasterAdmin) throw forbidden('Only a master admin can change a master admin.');
}

export async function loadAdmin(admins: AdminRepository, id: string, trx?: Executor): Promise<Admin> {
  const admin = await admins.findById(id, trx);
  if (!admin) throw notFound('No such admin');
  return admin;
}

/**
 * Sessions carry the admin's permissions, so a change or a deletion ends them: every service's
 * guard refuses them on the next request once `admin.session.revoked` arrives, this one at once.
 */
export async function endSessions(deps: Pick<AdminDeps, 'admins' | 'outbox' | 'clock'>, trx: Executor, adminId: string, reason: string): Promise<string[]> {
  const ended = await deps.admins.endSessionsOf(adminId, deps.clock.now(), reason, trx);
  for (const sessionId of ended) await deps.outbox.write(trx, SUBJECTS.adminSessionRevoked, { sessionId, adminId });
  return ended;
}
