import type { Db, Executor } from '@crewswap/kit';
import { SETTING_KEYS, type Setting, type SettingKey } from '@crewswap/proto';

interface SettingRow {
  key: SettingKey;
  value: string;
  updated_at: Date;
}

const toSetting = (row: SettingRow): Setting => ({ key: row.key, value: row.value, updated_at: row.updated_at.toISOString() });

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

export function createSettingsRepository(db: Db) {
  return {
    /** Every known setting, in the spec's key order. */
    async list(trx: Executor = db): Promise<Setting[]> {
      const rows: SettingRow[] = await trx('settings').whereIn('key', SETTING_KEYS).select('key', 'value', 'updated_at');
      return rows.map(toSetting).sort((a, b) => SETTING_KEYS.indexOf(a.key) - SETTING_KEYS.indexOf(b.key));
    },

    async get(key: SettingKey, trx: Executor = db): Promise<string | undefined> {
      const row: Pick<SettingRow, 'value'> | undefined = await trx('settings').where({ key }).first('value');
      return row?.value;
    },

    /** Inserts the settings that do not exist yet; existing values are never touched. */
    async seed(values: Record<SettingKey, string>, at: Date, trx: Executor = db): Promise<SettingKey[]> {
      const rows = Object.entries(values).map(([key, value]) => ({ key, value, updated_at: at }));
      const inserted: { key: SettingKey }[] = await trx('settings').insert(rows).onConflict('key').ignore().returning('key');
      return inserted.map((row) => row.key);
    },

    async set(key: SettingKey, value: string, at: Date, trx: Executor = db): Promise<Setting> {
      const [row]: SettingRow[] = await trx('settings')
        .insert({ key, value, updated_at: at })
        .onConflict('key')
        .merge(['value', 'updated_at'])
        .returning(['key', 'value', 'updated_at']);
      return toSetting(row!);
    },
  };
}
