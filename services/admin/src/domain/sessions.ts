import { randomUUID } from 'node:crypto';
import { signAdminToken, unauthorized, type AdminSession, type Clock, type Db, type Outbox, type SessionGuard } from '@crewswap/kit';
import { ADMIN_LOGIN_FAILED_MESSAGE, ADMIN_LOGIN_FAILED_TITLE, SUBJECTS, type AdminLoginBody, type CurrentAdmin } from '@crewswap/proto';
import type { ActivityRepository } from '../data/activity-repository';
import { toCurrentAdmin, type AdminRepository } from '../data/admin-repository';
import type { SettingsRepository } from '../data/settings-repository';
import { dummyPasswordHash, verifyPassword } from './passwords';

/** session_timeout_minutes' default (spec section 9) while the setting is missing or unreadable. */
const DEFAULT_TIMEOUT_MINUTES = 30;

/** Checks the credentials and opens a session; the token carries the admin's permissions. Both outcomes go in the activity log. */
export function createLoginAdmin(deps: { db: Db; admins: AdminRepository; outbox: Outbox; clock: Clock; privateKey: string; activity: ActivityRepository }) {
  const { db, admins, clock, activity } = deps;
  return {
    async execute(input: AdminLoginBody & { ipAddress: string | null; userAgent: string | null }): Promise<{ token: string; admin: CurrentAdmin }> {
      const found = await admins.findWithPasswordByEmail(input.email);
      const matches = await verifyPassword(input.password, found?.passwordHash ?? (await dummyPasswordHash()));
      if (!found || !found.passwordHash || !matches) {
        await activity.record({ adminId: found?.admin.id ?? null, email: input.email, action: 'login_failed', ipAddress: input.ipAddress, at: clock.now() });
        throw unauthorized(ADMIN_LOGIN_FAILED_MESSAGE, { title: ADMIN_LOGIN_FAILED_TITLE });
      }
      const { admin } = found;
      const sessionId = randomUUID();
      const now = clock.now();
      await db.transaction(async (trx) => {
        await admins.startSession({ id: sessionId, adminId: admin.id, at: now, ipAddress: input.ipAddress, userAgent: input.userAgent }, trx);
        await admins.recordLogin(admin.id, now, trx);
        // Every service's guard refuses a session it never heard was issued.
        await deps.outbox.write(trx, SUBJECTS.adminSessionStarted, { sessionId, adminId: admin.id });
        await activity.record({ adminId: admin.id, action: 'login', ipAddress: input.ipAddress, at: now }, trx);
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
export function createLogoutAdmin(deps: { db: Db; admins: AdminRepository; outbox: Outbox; guard: SessionGuard; clock: Clock; activity: ActivityRepository }) {
  const { db, admins, outbox, guard, clock, activity } = deps;
  return {
    async execute(session: AdminSession, ipAddress: string | null = null): Promise<void> {
      await db.transaction(async (trx) => {
        if (await admins.endSession(session.sessionId, clock.now(), 'logout', trx)) {
          await activity.record({ adminId: session.adminId, action: 'logout', ipAddress, at: clock.now() }, trx);
        }
        await outbox.write(trx, SUBJECTS.adminSessionRevoked, { sessionId: session.sessionId, adminId: session.adminId });
      });
      guard.revoke(session.sessionId);
    },
  };
}

/**
 * Ends admin sessions unused for session_timeout_minutes, here at once and everywhere through
 * `admin.session.revoked`, as auth does for pilots. Safe on every replica at once (each session
 * ends once). Every service's guard reports use, which admin records (events/session-activity).
 */
export function createEndIdleAdminSessions(deps: {
  db: Db;
  admins: AdminRepository;
  outbox: Outbox;
  guard: SessionGuard;
  clock: Clock;
  activity: ActivityRepository;
  settings: SettingsRepository;
}) {
  const { db, admins, outbox, guard, clock, activity } = deps;
  return {
    async execute(): Promise<number> {
      const value = Number(await deps.settings.get('session_timeout_minutes').catch(() => undefined));
      const minutes = Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MINUTES;
      const now = clock.now();
      const ended = await db.transaction(async (trx) => {
        const sessions = await admins.endIdleSessions(new Date(now.getTime() - minutes * 60_000), now, trx);
        for (const session of sessions) {
          await outbox.write(trx, SUBJECTS.adminSessionRevoked, { sessionId: session.id, adminId: session.adminId });
          await activity.record({ adminId: session.adminId, action: 'session_timeout', detail: `idle for ${minutes} minutes`, at: now }, trx);
        }
        return sessions;
      });
      for (const session of ended) guard.revoke(session.id);
      return ended.length;
    },
  };
}

/** The admin behind an open session, read fresh (a name or email may have changed since login). */
export async function currentAdmin(admins: AdminRepository, session: AdminSession): Promise<CurrentAdmin> {
  const admin = await admins.findBySession(session.sessionId);
  if (!admin) throw unauthorized('Session expired');
  return toCurrentAdmin(admin);
}
