import { SUBJECTS, type Pilot } from '@crewswap/proto';
import { backoffDelay, deleteStreams, startDurableConsumer, startRuntime, type Runtime } from '../src';
import { createTestDatabase, eventually, testBaseConfig, testPilot } from '@crewswap/kit-testing';

describe('consumer retries', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let runtime: Runtime;

  beforeAll(async () => {
    database = await createTestDatabase();
    runtime = await startRuntime({ name: 'kit-retry', schema: 'kit_retry', migrations: {}, config: testBaseConfig(database.url) });
  });
  afterAll(async () => {
    await deleteStreams(runtime.bus);
    await runtime.close();
    await database.drop();
  });

  it('waits longer before each redelivery, the last delay repeating', () => {
    const backoff = [100, 1000, 5000];
    expect([1, 2, 3, 4, 9].map((attempt) => backoffDelay(backoff, attempt))).toEqual([100, 1000, 5000, 5000, 5000]);
  });

  it('retries a failing handler with backoff, and after max-deliver records the event as a dead letter instead of retrying for ever', async () => {
    const attempts: number[] = [];
    const consumer = await startDurableConsumer({
      db: runtime.db,
      bus: runtime.bus,
      log: runtime.log,
      stream: 'AUTH',
      durable: 'kit_retry_poison',
      filter: 'auth.pilot.>',
      subjects: [SUBJECTS.pilotRegistered],
      maxDeliver: 3,
      backoffMs: [50, 100],
      handler: {
        apply: async () => {
          attempts.push(Date.now());
          throw new Error('the handler cannot apply this');
        },
      },
    });
    const pilot: Pilot = testPilot();
    const envelope = await runtime.db.transaction((trx) => runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
    const [dead] = await eventually(async () => {
      const rows = await runtime.db('dead_letters').where({ consumer: 'kit_retry_poison' });
      return rows.length > 0 ? rows : undefined;
    }, 10_000);
    expect(dead).toMatchObject({ event_id: envelope.id, subject: SUBJECTS.pilotRegistered, deliveries: 3, error: 'the handler cannot apply this' });
    expect(dead.payload).toMatchObject({ id: envelope.id, data: { pilot: { id: pilot.id } } });
    expect(attempts).toHaveLength(3);
    // Nothing was applied: the failed transactions left no processed record.
    expect(await runtime.db('processed_events').where({ event_id: envelope.id })).toEqual([]);
    await consumer.stop();
  });
});
