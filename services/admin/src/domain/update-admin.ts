import { afterCommit, badRequest, conflict, forbidden, type AdminSession } from '@crewswap/kit';
import type { Admin, AdminBody } from '@crewswap/proto';
import { assertMayEdit, emailTakenOnRace, endSessions, loadAdmin, permissionsFor, samePermissions, type AdminDeps, ADMIN_EMAIL_TAKEN } from './admins';

/** Edits an admin; changed permissions end the admin's sessions (they carry the old ones). */
export function createUpdateAdmin(deps: AdminDeps) {
  const { db, admins, guard } = deps;
  return {
    async execute(input: { actor: AdminSession; id: string; body: AdminBody }): Promise<Admin> {
      const { actor, id, body } = input;
      if (body.id !== undefined && body.id !== id) throw badRequest('The admin id does not match the address', { fields: { id: 'Does not match' } });
      return emailTakenOnRace(db.transaction(async (trx) => {
        const target = await loadAdmin(admins, id, trx);
        assertMayEdit(actor, target);
        if (body.isMasterAdmin !== target.isMasterAdmin && !actor.isMasterAdmin) {
          throw forbidden('Only a master admin can mark an admin as master admin.');
        }
        // Someone must keep full access: a master admin cannot step down themself.
        if (target.id === actor.adminId && target.isMasterAdmin && !body.isMasterAdmin) {
          throw badRequest('You cannot remove your own master admin status', { fields: { isMasterAdmin: 'Cannot be removed from yourself' } });
        }
        if (await admins.emailTaken(body.email, id, trx)) throw conflict(ADMIN_EMAIL_TAKEN);
        const permissions = permissionsFor(body.isMasterAdmin, body.permissions);
        const admin = await admins.update(
          id,
          { email: body.email, name: body.name, phone: body.phone, jobTitle: body.jobTitle, isMasterAdmin: body.isMasterAdmin, permissions },
          trx,
        );
        if (!samePermissions(target, body.isMasterAdmin, permissions)) {
          const ended = await endSessions(deps, trx, id, 'permissions_changed');
          afterCommit(trx, () => ended.forEach((sessionId) => guard.revoke(sessionId)));
        }
        return admin!;
      }));
    },
  };
}
