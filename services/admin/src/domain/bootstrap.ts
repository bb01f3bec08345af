import { randomUUID } from 'node:crypto';
import type { Clock, Db, Logger } from '@crewswap/kit';
import { PERMISSIONS, SETTING_DEFAULTS, type SettingKey } from '@crewswap/proto';
import { LOCAL_ADMIN_PASSWORD, type AdminConfig } from '../config';
import type { AdminRepository } from '../data/admin-repository';
import type { SettingsRepository } from '../data/settings-repository';
import { hashPassword } from './passwords';

// Any constant works: it only has to be the same number in every admin replica.
const BOOTSTRAP_LOCK = 84_001;

/**
 * Creates the master admin from the environment when there is no admin at all. Replicas starting
 * together take an advisory lock, so exactly one creates it; a later start finds it and does nothing.
 */
export async function bootstrapMasterAdmin(deps: { db: Db; admins: AdminRepository; config: AdminConfig; log: Logger }): Promise<boolean> {
  const { db, admins, config, log } = deps;
  const created = await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [BOOTSTRAP_LOCK]);
    if ((await admins.count(trx)) > 0) return false;
    await admins.insert(
      {
        id: randomUUID(),
        email: config.ADMIN_EMAIL,
        name: config.ADMIN_NAME,
        isMasterAdmin: true,
        permissions: [...PERMISSIONS],
        passwordHash: await hashPassword(config.ADMIN_PASSWORD),
      },
      trx,
    );
    return true;
  });
  if (created) {
    log.info({ email: config.ADMIN_EMAIL }, 'created the master admin');
    if (config.ADMIN_PASSWORD === LOCAL_ADMIN_PASSWORD) {
      log.warn('the master admin has the local default password; set ADMIN_PASSWORD anywhere but a developer machine');
    }
  }
  return created;
}

/** The value each setting starts with: the spec's default, or the environment where it names one. */
export function initialSettings(config: AdminConfig): Record<SettingKey, string> {
  return {
    ...SETTING_DEFAULTS,
    testing_button_enabled: config.TESTING_BUTTON_ENABLED,
    testing_password: config.TESTING_PASSWORD,
    upload_email: config.UPLOAD_EMAIL || config.ROSTER_UPLOAD_EMAIL || SETTING_DEFAULTS.upload_email,
  };
}

/** Seeds settings that do not exist yet (all of them on the first start); never overwrites. */
export async function seedSettings(deps: { settings: SettingsRepository; config: AdminConfig; clock: Clock; log: Logger }): Promise<void> {
  const seeded = await deps.settings.seed(initialSettings(deps.config), deps.clock.now());
  if (seeded.length > 0) deps.log.info({ keys: seeded }, 'seeded settings');
}
