/**
 * push-sender works in the notifications schema, which notifications owns and migrates: it
 * migrates nothing, waits for notifications' migrations when it starts first, and without them
 * refuses to start, saying why.
 */
import { deleteStreams, generateVapidKeys } from '@crewswap/kit';
import { createTestDatabase, startService, testBaseConfig, uniqueName } from '@crewswap/kit-testing';
import knexFactory from 'knex';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';

jest.setTimeout(60_000);

describe("push-sender in notifications' schema", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: ReturnType<typeof knexFactory>;
  const vapid = generateVapidKeys();
  const config = (env: Record<string, string> = {}) => ({
    ...configSchema.parse({ VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, ...env }),
    ...testBaseConfig(database.url, uniqueName('t')),
    PORT: 0,
  });
  const tablesOfNotifications = (): Promise<string[]> =>
    admin('information_schema.tables').where({ table_schema: 'notifications' }).pluck('table_name');

  beforeEach(async () => {
    database = await createTestDatabase();
    admin = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
  });
  afterEach(async () => {
    await admin.destroy();
    await database.drop();
  });

  it('refuses to start where notifications never migrated, naming what is missing, and creates no table', async () => {
    await expect(createApp(config({ SCHEMA_WAIT_MS: '500' }))).rejects.toThrow(
      /^The notifications schema has no table knex_migrations, table push_subscriptions, .*: notifications migrates it/,
    );
    expect(await tablesOfNotifications()).toEqual([]);
  });

  it('started before notifications, waits for its migrations and then runs; the migrations are notifications\' alone', async () => {
    const base = config();
    const starting = createApp(base);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await tablesOfNotifications()).toEqual([]);

    const notifications = await startService('notifications', base);
    const sender = await starting;
    try {
      expect((await sender.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const applied: string[] = await admin.withSchema('notifications').from('knex_migrations').orderBy('id').pluck('name');
      expect(applied.filter((name) => !name.includes('_kit_'))).toEqual(['0001_mail_log', '0002_push', '0003_swap_proposals_preference', '0004_alerts']);
    } finally {
      await sender.close();
      await deleteStreams(notifications.runtime.bus);
      await notifications.close();
    }
  });
});
