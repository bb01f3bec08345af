import type { Bus, Clock, Db, Outbox, SessionGuard } from '@crewswap/kit';
import type { ActivityRepository } from '../data/activity-repository';
import type { AdminRepository } from '../data/admin-repository';
import type { CleanupRepository } from '../data/cleanup-repository';
import type { SettingsRepository } from '../data/settings-repository';
import type { SystemStateRepository } from '../data/system-state-repository';
import { createConfigureCleanup, createRunCleanup, createRunScheduledCleanup } from './cleanup';
import { createCreateAdmin } from './create-admin';
import { createRestartSystem, createResumeSystem, createShutdownSystem } from './emergency';
import { createRemoveAdmin } from './remove-admin';
import { createEndIdleAdminSessions, createLoginAdmin, createLogoutAdmin } from './sessions';
import { createSetAdminPassword } from './set-admin-password';
import { createChangeSetting } from './settings';
import { createUpdateAdmin } from './update-admin';

/** Admin's use cases, wired once over its repositories. */
export function createAdminUseCases(deps: {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  guard: SessionGuard;
  clock: Clock;
  privateKey: string;
  productName: string;
  admins: AdminRepository;
  settings: SettingsRepository;
  cleanups: CleanupRepository;
  systemState: SystemStateRepository;
  activity: ActivityRepository;
}) {
  const runCleanup = createRunCleanup(deps);
  return {
    loginAdmin: createLoginAdmin(deps),
    logoutAdmin: createLogoutAdmin(deps),
    endIdleAdminSessions: createEndIdleAdminSessions(deps),
    createAdmin: createCreateAdmin(deps),
    updateAdmin: createUpdateAdmin(deps),
    removeAdmin: createRemoveAdmin(deps),
    setAdminPassword: createSetAdminPassword(deps),
    changeSetting: createChangeSetting(deps),
    shutdownSystem: createShutdownSystem(deps),
    resumeSystem: createResumeSystem(deps),
    restartSystem: createRestartSystem(deps),
    configureCleanup: createConfigureCleanup(deps),
    runCleanup,
    runScheduledCleanup: createRunScheduledCleanup({ ...deps, runCleanup }),
  };
}
export type AdminUseCases = ReturnType<typeof createAdminUseCases>;
