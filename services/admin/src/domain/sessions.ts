import { randomUUID } from 'node:crypto';
import { signAdminToken, unauthorized, type AdminSession, type Clock, type Db, type Outbox, type SessionGuard } from '@crewswap/kit';
import { ADMIN_LOGIN_FAILED_MESSAGE, ADMIN_LOGIN_FAILED_TITLE, SUBJECTS, type AdminLoginBody, type CurrentAdmin } from '@crewswap/proto';
import { toCurrentAdmin, type AdminRepository } from '../data/admin-repository';
import { dummyPasswordHash, verifyPassword } from './passwords';

/** Checks the credentials and opens a session; the token carries the admin's permissions. */
export function createLoginAdmin(deps: { db: Db; admins: AdminRepository; clock: Clock; privateKey: string }) {
  const { db, admins, clock } = deps;
  return {
    async execute(input: AdminLoginBody & { ipAddress: string | null; userAgent: string | null }): Promise<{ token: string; admin: CurrentAdmin }> {
      const found = await admins.findWithPasswordByEmail(input.email);
      const matches = await verifyPassword(input.password, found?.passwordHash ?? (await dummyPasswordHash()));
      if (!found || !found.passwordHash || !matches) {
        throw unauthorized(ADMIN_LOGIN_FAILED_MESSAGE, { title: ADMIN_LOGIN_FAILED_TITLE });
      }
      const { admin } = found;
      const sessionId = randomUUID();
      const now = clock.now();
      await db.transaction(async (trx) => {
        await admins.startSession({ id: sessionId, adminId: admin.id, at: now, ipAddress: input.ipAddress, userAgent: input.userAgent }, trx);
        await admins.recordLogin(admin.id, now, trx);
      });
      const token = signAdminToken(deps.privateKey, {
        sessionId,
        adminId: admin.id,
        isMasterAdmin: admin.isMasterAdmin,
        permissions: admin.permissions,
      });
      return { token, admin: toCurrentAdmin(admin) };
    },
  };
}

/**
 * Ends the session here at once and everywhere else through `admin.session.revoked`, which every
 * service's guard follows. The event goes out even for a session already ended, so a guard that
 * somehow missed the first one still learns of it.
 */
export function createLogoutAdmin(deps: { db: Db; admins: AdminRepository; outbox: Outbox; guard: SessionGuard; clock: Clock }) {
  const { db, admins, outbox, guard, clock } = deps;
  return {
    async execute(session: AdminSession): Promise<void> {
      await db.transaction(async (trx) => {
        await admins.endSession(session.sessionId, clock.now(), 'logout', trx);
        await outbox.write(trx, SUBJECTS.adminSessionRevoked, { sessionId: session.sessionId, adminId: session.adminId });
      });
      guard.revoke(session.sessionId);
    },
  };
}

/** The admin behind an open session, read fresh (a name or email may have changed since login). */
export async function currentAdmin(admins: AdminRepository, session: AdminSession): Promise<CurrentAdmin> {
  const admin = await admins.findBySession(session.sessionId);
  if (!admin) throw unauthorized('Session expired');
  return toCurrentAdmin(admin);
}
