import { SUBJECTS } from '@crewswap/proto';
import { deleteStreams, follow, startDurableConsumer, startRuntime, startWorkQueue, type Runtime } from '../src';
import { createTestDatabase, eventually, testBaseConfig, testPilot } from '@crewswap/kit-testing';

describe('the events toolkit', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let runtime: Runtime;

  beforeAll(async () => {
    database = await createTestDatabase();
    runtime = await startRuntime({ name: 'kit-events', schema: 'kit_events', migrations: {}, config: testBaseConfig(database.url) });
  });
  afterAll(async () => {
    await deleteStreams(runtime.bus);
    await runtime.close();
    await database.drop();
  });

  const register = (firstName: string) => runtime.db.transaction((trx) => runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot: testPilot({ firstName }) }));
  const common = (durable: string) => ({ db: runtime.db, bus: runtime.bus, log: runtime.log, stream: 'AUTH' as const, durable, filter: 'auth.pilot.>', subjects: [SUBJECTS.pilotRegistered] });

  it('a durable handler applies what it prepared in the transaction, once, and a failed prepare comes again', async () => {
    const prepared: string[] = [];
    const applied: { name: string; inTransaction: boolean }[] = [];
    const consumer = await startDurableConsumer({
      ...common('kit_events_prepare'),
      backoffMs: [50],
      handler: {
        prepare: async (event) => {
          prepared.push(event.data.pilot.firstName);
          if (prepared.length === 1) throw new Error('the other service is away');
          return event.data.pilot.firstName.toUpperCase();
        },
        apply: async (_event, name, trx) => {
          applied.push({ name, inTransaction: trx.isTransaction === true });
        },
      },
    });
    const envelope = await register('Imogen');
    await eventually(async () => applied.length === 1);
    // A copy of an applied event (a redelivery in effect) neither prepares nor applies again.
    await runtime.bus.js.publish(runtime.bus.subject(SUBJECTS.pilotRegistered), JSON.stringify(envelope));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await consumer.stop();
    expect(prepared).toEqual(['Imogen', 'Imogen']);
    expect(applied).toEqual([{ name: 'IMOGEN', inTransaction: true }]);
  });

  it('a work queue retries a failed command, then records it as a dead letter', async () => {
    const tries: string[] = [];
    const queue = await startWorkQueue({
      ...common('kit_events_queue'),
      concurrency: 4,
      maxDeliver: 2,
      backoffMs: [50],
      handle: async (command) => {
        tries.push(command.data.pilot.firstName);
        throw new Error('the push service said 503');
      },
    });
    const envelope = await register('Tomasz');
    const [dead] = await eventually(async () => {
      const rows = await runtime.db('dead_letters').where({ consumer: 'kit_events_queue', event_id: envelope.id });
      return rows.length > 0 && rows;
    });
    await queue.stop();
    expect(dead).toMatchObject({ deliveries: 2, error: 'the push service said 503' });
    expect(tries.filter((name) => name === 'Tomasz')).toEqual(['Tomasz', 'Tomasz']);
  });

  it('a follower reads in order from a start sequence, or only what comes after it starts', async () => {
    const fromNow: string[] = [];
    const now = await follow({ bus: runtime.bus, log: runtime.log, stream: 'AUTH', filter: 'auth.pilot.>', subjects: [SUBJECTS.pilotRegistered], handle: (event) => void fromNow.push(event.data.pilot.firstName) });
    await register('Ana');
    // The relay publishes after the commit: wait for Ana to be on the stream.
    const first = await eventually(async () => {
      const last = await runtime.bus.jsm.streams.getMessage(runtime.bus.stream('AUTH'), { last_by_subj: runtime.bus.subject(SUBJECTS.pilotRegistered) });
      return last.json<{ data: { pilot: { firstName: string } } }>().data.pilot.firstName === 'Ana' && last;
    });
    await register('Ben');
    await register('Cleo');

    const fromAna: string[] = [];
    const replay = await follow({
      bus: runtime.bus,
      log: runtime.log,
      stream: 'AUTH',
      filter: 'auth.pilot.>',
      subjects: [SUBJECTS.pilotRegistered],
      from: { sequence: first.seq },
      handle: (event) => void fromAna.push(event.data.pilot.firstName),
    });
    await eventually(async () => fromAna.length === 3 && fromNow.length === 3);
    expect(fromAna).toEqual(['Ana', 'Ben', 'Cleo']);
    expect(fromNow).toEqual(['Ana', 'Ben', 'Cleo']);
    expect(replay.lastSequence()).toBe(first.seq + 2);
    await Promise.all([now.stop(), replay.stop()]);
  });
});
