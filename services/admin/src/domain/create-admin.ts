import { randomUUID } from 'node:crypto';
import { conflict, forbidden, type AdminSession } from '@crewswap/kit';
import type { Admin, AdminBody } from '@crewswap/proto';
import { emailTakenOnRace, loadAdmin, permissionsFor, type AdminDeps, ADMIN_EMAIL_TAKEN } from './admins';

export function createCreateAdmin(deps: Pick<AdminDeps, 'db' | 'admins'>) {
  const { db, admins } = deps;
  return {
    async execute(input: { actor: AdminSession; body: AdminBody }): Promise<Admin> {
      const { actor, body } = input;
      if (body.isMasterAdmin && !actor.isMasterAdmin) throw forbidden('Only a master admin can create a master admin.');
      const id = randomUUID();
      return emailTakenOnRace(db.transaction(async (trx) => {
        if (await admins.emailTaken(body.email, null, trx)) throw conflict(ADMIN_EMAIL_TAKEN);
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
        return loadAdmin(admins, id, trx);
      }));
    },
  };
}
