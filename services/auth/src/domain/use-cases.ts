import type { Bus } from '@crewswap/kit';
import { createAdminReads } from './admin-reads';
import { createAdminSetPassword } from './admin-set-password';
import { createAdminUpdatePilot } from './admin-update-pilot';
import { createChangePassword } from './change-password';
import { createDeletePilot } from './delete-pilot';
import type { AuthDeps } from './deps';
import { createEndSession } from './end-session';
import { createForcePasswordChange } from './force-password-change';
import { createForgotPassword } from './forgot-password';
import { createLogin } from './login';
import { createAuthMail } from './mail';
import { createPilotSessions } from './pilot-sessions';
import { createRegister } from './register';
import { createRemoveDeletedPilot } from './remove-deleted-pilot';
import { createResendVerification } from './resend-verification';
import { createRestorePilot } from './restore-pilot';
import { createSeedDemoPilots } from './seed';
import { createSetSystemState } from './set-system-state';
import { createSweepIdleSessions } from './sweep-idle-sessions';
import { createTemporaryPasswords } from './temporary-passwords';
import { createTestLogin } from './test-login';
import { createUpdateProfile } from './update-profile';
import { createVerificationCodes } from './verification-codes';
import { createVerifyEmail } from './verify-email';

/**
 * Auth's use cases, wired once: the pieces several of them share (sessions, mail, verification
 * codes, temporary passwords) are built first and handed to those that need them.
 */
export function createAuthUseCases(deps: AuthDeps & { bus: Bus; privateKey: string }) {
  const { db, repos, clock, outbox, guard, settings, passwords, config } = deps;
  const sessions = createPilotSessions({ sessions: repos.sessions, outbox, guard, clock, settings, privateKey: deps.privateKey });
  const mail = createAuthMail({ outbox, config });
  const codes = createVerificationCodes({ db, verification: repos.verification, clock, mail });
  const temporaryPasswords = createTemporaryPasswords({ pilots: repos.pilots, passwords, clock, sessions, mail });
  return {
    register: createRegister({ ...deps, codes }),
    verifyEmail: createVerifyEmail(deps),
    resendVerification: createResendVerification({ ...deps, codes }),
    restorePilot: createRestorePilot({ ...deps, codes }),
    login: createLogin({ ...deps, sessions, codes, temporaryPasswords }),
    testLogin: createTestLogin({ ...deps, sessions }),
    forgotPassword: createForgotPassword({ ...deps, temporaryPasswords }),
    forcePasswordChange: createForcePasswordChange({ ...deps, sessions }),
    endSession: createEndSession({ ...deps, sessions }),
    sweepIdleSessions: createSweepIdleSessions({ ...deps, sessions }),
    setSystemState: createSetSystemState({ ...deps, sessions }),
    updateProfile: createUpdateProfile(deps),
    changePassword: createChangePassword(deps),
    deletePilot: createDeletePilot({ ...deps, sessions }),
    adminUpdatePilot: createAdminUpdatePilot(deps),
    adminSetPassword: createAdminSetPassword({ ...deps, sessions }),
    removeDeletedPilot: createRemoveDeletedPilot(deps),
    seedDemoPilots: createSeedDemoPilots(deps),
    /** Reads for the admin console (not use cases: nothing changes). */
    adminReads: createAdminReads({ ...deps, sessions }),
  };
}
export type AuthUseCases = ReturnType<typeof createAuthUseCases>;
