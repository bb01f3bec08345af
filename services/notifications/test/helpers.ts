import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteStreams, fixedClock, startRuntime, type Runtime } from '@crewswap/kit';
import { createTestDatabase, testBaseConfig, uniqueName } from '@crewswap/kit-testing';
import { SETTING_DEFAULTS, SUBJECTS, type EventDataMap, type SettingKey } from '@crewswap/proto';
import { createApp, type NotificationsService } from '../src/app';
import { configSchema } from '../src/config';

/**
 * The notifications service and, on the same bus, another service that asks it for mail. Admin's
 * settings are `settings` (the defaults until a test changes one).
 */
export async function startNotifications(env: Record<string, string> = {}) {
  const settings: Record<SettingKey, string> = { ...SETTING_DEFAULTS };
  const database = await createTestDatabase();
  const prefix = uniqueName('t');
  const outboxDir = await mkdtemp(join(tmpdir(), 'crewswap-mail-'));
  const clock = fixedClock('2026-11-23T10:15:00.123Z');
  const config = { ...configSchema.parse({ MAIL_OUTBOX_DIR: outboxDir, ...env }), ...testBaseConfig(database.url, prefix) };
  const service: NotificationsService = await createApp(config, { clock, settings: { get: async (key) => settings[key] } });
  const sender: Runtime = await startRuntime({ name: 'sender', schema: 'sender', migrations: {}, config: testBaseConfig(database.url, prefix) });

  return {
    ...service,
    config,
    sender,
    clock,
    settings,
    outboxDir,
    /** Asks for a mail the way every service does: through its outbox, in a transaction. */
    requestMail: (mail: EventDataMap[typeof SUBJECTS.sendMail]) => sender.db.transaction((trx) => sender.outbox.write(trx, SUBJECTS.sendMail, mail)),
    emlFiles: async () => (await readdir(outboxDir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml')).sort(),
    readEml: (name: string) => readFile(join(outboxDir, name), 'utf8'),
    async stop() {
      await deleteStreams(service.runtime.bus);
      await sender.close();
      await service.close();
      await database.drop();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}
export type TestNotifications = Awaited<ReturnType<typeof startNotifications>>;

/** The header block of an RFC 822 message, unfolded, as name (lower case) -> value. */
export function headersOf(eml: string): Record<string, string> {
  const head = eml.slice(0, eml.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return Object.fromEntries(
    head.split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
}
