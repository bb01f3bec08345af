import { SUBJECTS } from '@crewswap/proto';
import { deleteStreams, startRuntime, type Runtime } from '../src';
import { createTestDatabase, eventually, testBaseConfig } from '@crewswap/kit-testing';

jest.setTimeout(60_000);

describe('the outbox relay', () => {
  it('publishes events in the order they were written, across batches, each once', async () => {
    const database = await createTestDatabase();
    let runtime: Runtime | undefined;
    try {
      runtime = await startRuntime({ name: 'relay-test', schema: 'relay_test', migrations: {}, config: testBaseConfig(database.url) });
      const { db, bus, outbox } = runtime;
      const stream = bus.stream('ADMIN');
      const before = (await bus.jsm.streams.info(stream)).state.last_seq;
      // 250 events: three batches of the relay (100 rows each), written by two transactions.
      const first = await db.transaction((trx) =>
        outbox.writeMany(trx, SUBJECTS.settingsChanged, Array.from({ length: 150 }, (_, i) => ({ data: { key: 'swap_search_days', value: String(i) } }))),
      );
      const second = await db.transaction((trx) =>
        outbox.writeMany(trx, SUBJECTS.settingsChanged, Array.from({ length: 100 }, (_, i) => ({ data: { key: 'swap_search_days', value: String(150 + i) } }))),
      );
      await eventually(async () => Number((await db('outbox').whereNull('published_at').count<{ count: number }[]>('* as count'))[0]!.count) === 0, 30_000);

      const stored: string[] = [];
      for (let seq = before + 1; seq <= (await bus.jsm.streams.info(stream)).state.last_seq; seq++) {
        stored.push((await bus.jsm.streams.getMessage(stream, { seq })).json<{ id: string }>().id);
      }
      expect(stored).toEqual([...first, ...second].map((event) => event.id));
    } finally {
      if (runtime) await deleteStreams(runtime.bus);
      await runtime?.close();
      await database.drop();
    }
  });
});
