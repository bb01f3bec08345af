import { SUBJECTS } from '@crewswap/proto';
import { startRuntime, type Runtime } from '../src';
import { createTestDatabase, eventually, startThrowawayNats, testBaseConfig } from '@crewswap/kit-testing';

jest.setTimeout(60_000);

describe('the outbox while NATS is away', () => {
  it('keeps the change, and publishes its event exactly once when NATS is back', async () => {
    const database = await createTestDatabase();
    const nats = await startThrowawayNats();
    let runtime: Runtime | undefined;
    try {
      runtime = await startRuntime({
        name: 'fault-test',
        schema: 'fault_test',
        migrations: {},
        config: { ...testBaseConfig(database.url), NATS_URL: nats.url },
      });
      const { db, bus, outbox } = runtime;
      await nats.stop();

      const event = await db.transaction((trx) =>
        outbox.write(trx, SUBJECTS.settingsChanged, { key: 'swap_search_days', value: '6' }),
      );
      // The write committed although nothing could be published.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await db('outbox').where({ id: event.id }).whereNull('published_at').first()).toBeDefined();

      await nats.start();
      await eventually(async () => (await db('outbox').where({ id: event.id }).whereNotNull('published_at').first()) !== undefined, 30_000);
      const info = await bus.jsm.streams.info(bus.stream('ADMIN'));
      expect(info.state.messages).toBe(1);
      const stored = await bus.jsm.streams.getMessage(bus.stream('ADMIN'), { seq: info.state.first_seq });
      expect(stored.json<{ id: string }>().id).toBe(event.id);
    } finally {
      await runtime?.close();
      await nats.stop().catch(() => undefined);
      await database.drop();
    }
  });
});
