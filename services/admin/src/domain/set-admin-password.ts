import { badRequest, conflict, type AdminSession } from '@crewswap/kit';
import { ADMIN_PASSWORD_LENGTH_MESSAGE, ADMIN_PASSWORD_MISMATCH_MESSAGE, MIN_PASSWORD_LENGTH, type SetAdminPasswordBody } from '@crewswap/proto';
import type { AdminRepository } from '../data/admin-repository';
import { assertMayEdit, loadAdmin } from './admins';
import { hashPassword } from './passwords';

/** The first password of an admin who has never logged in. */
export function createSetAdminPassword(deps: { admins: AdminRepository }) {
  const { admins } = deps;
  return {
    async execute(input: { actor: AdminSession; id: string; body: SetAdminPasswordBody }): Promise<void> {
      const { actor, id, body } = input;
      if (body.confirmPassword !== undefined && body.confirmPassword !== body.password) {
        throw badRequest(ADMIN_PASSWORD_MISMATCH_MESSAGE, { fields: { confirmPassword: ADMIN_PASSWORD_MISMATCH_MESSAGE } });
      }
      if (body.password.length < MIN_PASSWORD_LENGTH) {
        throw badRequest(ADMIN_PASSWORD_LENGTH_MESSAGE, { fields: { password: ADMIN_PASSWORD_LENGTH_MESSAGE } });
      }
      const target = await loadAdmin(admins, id);
      assertMayEdit(actor, target);
      const passwordHash = await hashPassword(body.password);
      if (!(await admins.setInitialPassword(id, passwordHash))) {
        throw conflict('A password can only be set for an admin who has never logged in');
      }
    },
  };
}
