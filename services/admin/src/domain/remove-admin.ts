import { afterCommit, forbidden, type AdminSession } from '@crewswap/kit';
import { endSessions, loadAdmin, type AdminDeps } from './admins';

/** Deletes an admin (never oneself, never the master admin) and ends their sessions. */
export function createRemoveAdmin(deps: AdminDeps) {
  const { db, admins, guard } = deps;
  return {
    async execute(input: { actor: AdminSession; id: string }): Promise<void> {
      const { actor, id } = input;
      if (id === actor.adminId) throw forbidden('You cannot delete your own account');
      await db.transaction(async (trx) => {
        const target = await loadAdmin(admins, id, trx);
        if (target.isMasterAdmin) throw forbidden('The master admin cannot be deleted');
        const ended = await endSessions(deps, trx, id, 'deleted');
        await admins.remove(id, trx);
        afterCommit(trx, () => ended.forEach((sessionId) => guard.revoke(sessionId)));
      });
    },
  };
}
