import { randomUUID } from 'node:crypto';
import { badRequest, conflict, forbidden, notFound, type AdminSession, type Clock, type Db, type Executor, type Outbox, type SessionGuard } from '@crewswap/kit';
import {
  ADMIN_PASSWORD_LENGTH_MESSAGE,
  ADMIN_PASSWORD_MISMATCH_MESSAGE,
  MIN_PASSWORD_LENGTH,
  PERMISSIONS,
  SUBJECTS,
  type Admin,
  type AdminBody,
  type Permission,
  type SetAdminPasswordBody,
} from '@crewswap/proto';
import type { AdminRepository } from '../data/admin-repository';
import { hashPassword } from './passwords';

interface Deps {
  db: Db;
  admins: AdminRepository;
  outbox: Outbox;
  guard: SessionGuard;
  clock: Clock;
}

/** A master admin holds every permission; others keep their subset, each key once, in the spec's order. */
function permissionsFor(isMasterAdmin: boolean, permissions: Permission[]): Permission[] {
  return isMasterAdmin ? [...PERMISSIONS] : PERMISSIONS.filter((key) => permissions.includes(key));
}

const samePermissions = (a: Admin, isMasterAdmin: boolean, permissions: Permission[]) =>
  a.isMasterAdmin === isMasterAdmin && a.permissions.length === permissions.length && a.permissions.every((key, i) => key === permissions[i]);

export function createAdminsService(deps: Deps) {
  const { db, admins, outbox, guard, clock } = deps;

  /** The admin spec's rule for edit and set-password: a master admin, or manage_admins acting on a non-master. */
  function assertMayEdit(actor: AdminSession, target: Admin): void {
    if (target.isMasterAdmin && !actor.isMasterAdmin) throw forbidden('Only a master admin can change a master admin.');
  }

  async function load(id: string, trx: Executor = db): Promise<Admin> {
    const admin = await admins.findById(id, trx);
    if (!admin) throw notFound('No such admin');
    return admin;
  }

  /**
   * Sessions carry the admin's permissions, so a change or a deletion ends them: every service's
   * guard refuses them on the next request once `admin.session.revoked` arrives, this one at once.
   */
  async function endSessions(trx: Executor, adminId: string, reason: string): Promise<string[]> {
    const ended = await admins.endSessionsOf(adminId, clock.now(), reason, trx);
    for (const sessionId of ended) await outbox.write(trx, SUBJECTS.adminSessionRevoked, { sessionId, adminId });
    return ended;
  }

  return {
    list: () => admins.list(),

    async create(actor: AdminSession, body: AdminBody): Promise<Admin> {
      if (body.isMasterAdmin && !actor.isMasterAdmin) throw forbidden('Only a master admin can create a master admin.');
      const id = randomUUID();
      return db.transaction(async (trx) => {
        if (await admins.emailTaken(body.email, null, trx)) throw conflict('An admin with this email already exists');
        await admins.insert(
          {
            id,
            email: body.email,
            name: body.name,
            phone: body.phone,
            jobTitle: body.jobTitle,
            isMasterAdmin: body.isMasterAdmin,
            permissions: permissionsFor(body.isMasterAdmin, body.permissions),
            // No password until one is set (set-password); until then the admin cannot log in.
            passwordHash: null,
          },
          trx,
        );
        return load(id, trx);
      });
    },

    async update(actor: AdminSession, id: string, body: AdminBody): Promise<Admin> {
      if (body.id !== undefined && body.id !== id) throw badRequest('The admin id does not match the address', { fields: { id: 'Does not match' } });
      const ended: string[] = [];
      const updated = await db.transaction(async (trx) => {
        const target = await load(id, trx);
        assertMayEdit(actor, target);
        if (body.isMasterAdmin !== target.isMasterAdmin && !actor.isMasterAdmin) {
          throw forbidden('Only a master admin can mark an admin as master admin.');
        }
        // Someone must keep full access: a master admin cannot step down themself.
        if (target.id === actor.adminId && target.isMasterAdmin && !body.isMasterAdmin) {
          throw badRequest('You cannot remove your own master admin status', { fields: { isMasterAdmin: 'Cannot be removed from yourself' } });
        }
        if (await admins.emailTaken(body.email, id, trx)) throw conflict('An admin with this email already exists');
        const permissions = permissionsFor(body.isMasterAdmin, body.permissions);
        const admin = await admins.update(
          id,
          { email: body.email, name: body.name, phone: body.phone, jobTitle: body.jobTitle, isMasterAdmin: body.isMasterAdmin, permissions },
          trx,
        );
        if (!samePermissions(target, body.isMasterAdmin, permissions)) ended.push(...(await endSessions(trx, id, 'permissions_changed')));
        return admin!;
      });
      ended.forEach((sessionId) => guard.revoke(sessionId));
      return updated;
    },

    async remove(actor: AdminSession, id: string): Promise<void> {
      if (id === actor.adminId) throw forbidden('You cannot delete your own account');
      const ended = await db.transaction(async (trx) => {
        const target = await load(id, trx);
        if (target.isMasterAdmin) throw forbidden('The master admin cannot be deleted');
        const sessions = await endSessions(trx, id, 'deleted');
        await admins.remove(id, trx);
        return sessions;
      });
      ended.forEach((sessionId) => guard.revoke(sessionId));
    },

    async setInitialPassword(actor: AdminSession, id: string, body: SetAdminPasswordBody): Promise<void> {
      if (body.confirmPassword !== undefined && body.confirmPassword !== body.password) {
        throw badRequest(ADMIN_PASSWORD_MISMATCH_MESSAGE, { fields: { confirmPassword: ADMIN_PASSWORD_MISMATCH_MESSAGE } });
      }
      if (body.password.length < MIN_PASSWORD_LENGTH) {
        throw badRequest(ADMIN_PASSWORD_LENGTH_MESSAGE, { fields: { password: ADMIN_PASSWORD_LENGTH_MESSAGE } });
      }
      const target = await load(id);
      assertMayEdit(actor, target);
      const passwordHash = await hashPassword(body.password);
      if (!(await admins.setInitialPassword(id, passwordHash))) {
        throw conflict('A password can only be set for an admin who has never logged in');
      }
    },
  };
}
export type AdminsService = ReturnType<typeof createAdminsService>;
