import { composeMail, forbidden, notFound, parse, type AdminSession, type Clock, type Db, type Executor, type Outbox } from '@crewswap/kit';
import {
  PUBLIC_SETTING_KEYS,
  SECRET_SETTING_KEYS,
  SECRET_SETTINGS_PERMISSION,
  SETTINGS_READ_PERMISSIONS,
  SETTING_KEYS,
  SETTING_PERMISSIONS,
  SETTING_VALUE_RULES,
  SUBJECTS,
  WRITE_ONLY_SETTING_KEYS,
  type Permission,
  type Setting,
  type SettingKey,
} from '@crewswap/proto';
import { z } from 'zod';
import type { SettingsRepository } from '../data/settings-repository';

export function asSettingKey(key: string): SettingKey {
  if (!(SETTING_KEYS as readonly string[]).includes(key)) throw notFound('No such setting');
  return key as SettingKey;
}

/** Only the allow-listed keys are readable without a session; every other key looks absent. */
export function asPublicSettingKey(key: string): SettingKey {
  if (!(PUBLIC_SETTING_KEYS as readonly string[]).includes(key)) throw notFound('No such setting');
  return key as SettingKey;
}

export function requireSettingPermission(session: AdminSession, key: SettingKey): void {
  if (session.isMasterAdmin) return;
  if (!SETTING_PERMISSIONS[key].some((permission) => session.permissions.includes(permission))) {
    throw forbidden('You do not have permission to do this.');
  }
}

const holds = (session: AdminSession, permissions: readonly Permission[]) =>
  session.isMasterAdmin || permissions.some((permission) => session.permissions.includes(permission));

/** Reading the list needs System Settings or Security; anyone else has neither panel. */
export function requireSettingsReadPermission(session: AdminSession): void {
  if (!holds(session, SETTINGS_READ_PERMISSIONS)) throw forbidden('You do not have permission to do this.');
}

/** A setting as a browser may receive it: a write-only one without its value, saying only whether one is stored. */
export function forBrowser(setting: Setting): Setting {
  if (!(WRITE_ONLY_SETTING_KEYS as readonly string[]).includes(setting.key)) return setting;
  return { ...setting, value: '', isSet: setting.value !== '' };
}

/** The settings this admin may see: the secret ones are left out unless the admin may see secrets; write-only ones never carry their value. */
export function visibleSettings(session: AdminSession, settings: Setting[]): Setting[] {
  const visible = holds(session, [SECRET_SETTINGS_PERMISSION]) ? settings : settings.filter((setting) => !(SECRET_SETTING_KEYS as readonly string[]).includes(setting.key));
  return visible.map(forBrowser);
}

/**
 * The stored text of a new value, or 400 with the spec's message. Surrounding spaces are dropped
 * (a pasted address often carries them), except from the testing password, which is taken as typed.
 */
export function normaliseSettingValue(key: SettingKey, raw: string): string {
  const input = key === 'testing_password' ? raw : raw.trim();
  const { value } = parse(z.object({ value: SETTING_VALUE_RULES[key] }), { value: input });
  return String(value);
}

/**
 * Stores a setting's value and tells every service in the same transaction (`admin.settings.changed`).
 * A new daily access code is mailed to the access code email (admin spec, Security settings), in
 * the same transaction, so the code and its mail never part.
 */
export function createChangeSetting(deps: { db: Db; settings: SettingsRepository; outbox: Outbox; clock: Clock; productName: string }) {
  const { db, settings, outbox, clock, productName } = deps;

  const mailAccessCode = async (code: string, trx: Executor) => {
    const to = (await settings.get('access_code_email', trx)) ?? '';
    if (code === '' || to === '') return;
    const lines = [`The ${productName} daily access code is now:`, '', code, '', 'Pilots enter it in VS Pilot Verification to verify their account.'];
    await outbox.write(trx, SUBJECTS.sendMail, { to, subject: `${productName}: new daily access code`, ...composeMail({ product: productName, lines }) });
  };

  return {
    async execute(input: { key: SettingKey; value: string }): Promise<Setting> {
      return db.transaction(async (trx) => {
        const before = await settings.get(input.key, trx);
        const setting = await settings.set(input.key, input.value, clock.now(), trx);
        await outbox.write(trx, SUBJECTS.settingsChanged, { key: input.key, value: input.value });
        if (input.key === 'daily_access_code' && input.value !== before) await mailAccessCode(input.value, trx);
        return setting;
      });
    },
  };
}
export type ChangeSetting = ReturnType<typeof createChangeSetting>;
