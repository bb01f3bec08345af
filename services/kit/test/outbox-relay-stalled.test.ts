/**
 * The outbox relay while JetStream does not answer (issue 58): it holds no database connection
 * while it waits for acknowledgements, and a batch that fails part-way is published again from
 * where it failed, so the stream still holds every event once, in the order written. JetStream is
 * a private nats-server that the test pauses (SIGSTOP): connected, but silent. Two replicas relaying
 * one outbox take turns, so their events are never published out of order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBJECTS } from '@crewswap/proto';
import { connectBus, createDb, createLogger, createOutbox, ensureStreams, kitMigrations, migrate, startOutboxRelay, type Bus, type Db, type Outbox, type OutboxRelay } from '../src';
import { createTestDatabase, eventually, logLines, uniqueName, freePort } from '@crewswap/kit-testing';

jest.setTimeout(90_000);

/** A nats-server with JetStream that the test can pause and resume. */
async function pausableNats(): Promise<{ url: string; pause(): void; resume(): void; kill(): void }> {
  const port = await freePort();
  const child: ChildProcess = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', mkdtempSync(join(tmpdir(), 'nats-'))], { stdio: 'ignore' });
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
    10_000,
  );
  return {
    url: `nats://127.0.0.1:${port}`,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    kill: () => {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    },
  };
}

describe('the outbox relay without a connection held through publishing', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let nats: Awaited<ReturnType<typeof pausableNats>>;
  let db: Db;
  let bus: Bus;
  let relay: OutboxRelay;
  let outbox: Outbox;
  const logs = logLines<{ msg: string }>();

  beforeEach(async () => {
    database = await createTestDatabase();
    nats = await pausableNats();
    const migrator = createDb(database.url, 'relay_stalled');
    await migrate(migrator, 'relay_stalled', kitMigrations);
    await migrator.destroy();
    // One connection: whatever the relay holds, nobody else has.
    db = createDb(database.url, 'relay_stalled', { min: 0, max: 1 });
    const log = createLogger('relay-stalled', { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' }, logs.output);
    bus = await connectBus({ url: nats.url, prefix: uniqueName('t'), name: 'relay-stalled', log });
    await ensureStreams(bus);
    relay = startOutboxRelay({ db, bus, log });
    outbox = createOutbox(relay);
  });

  afterEach(async () => {
    nats.resume();
    await relay?.stop();
    await bus.nc.close().catch(() => undefined);
    nats.kill();
    await db.destroy();
    await database.drop();
  });

  const unpublished = async () => Number((await db('outbox').whereNull('published_at').count<{ count: number }[]>('* as count'))[0]!.count);
  const write = (values: number[]) => db.transaction((trx) => outbox.writeMany(trx, SUBJECTS.settingsChanged, values.map((i) => ({ data: { key: 'swap_search_days', value: String(i) } }))));
  async function storedIds(): Promise<string[]> {
    const stream = bus.stream('ADMIN');
    const { first_seq: first, last_seq: last } = (await bus.jsm.streams.info(stream)).state;
    const ids: string[] = [];
    for (let seq = first; seq <= last && last > 0; seq++) ids.push((await bus.jsm.streams.getMessage(stream, { seq })).json<{ id: string }>().id);
    return ids;
  }

  it('holds no database connection while it waits for JetStream to acknowledge', async () => {
    const [first] = await write([1]);
    await eventually(async () => (await unpublished()) === 0, 10_000);

    nats.pause();
    const [second] = await write([2]);
    // The relay has taken the event and is waiting for JetStream (a publish waits 2 s at most).
    await eventually(async () => (await db('outbox_relay').where({ id: 1 }).first()).holder !== null, 1_500);
    const started = Date.now();
    await db.raw('SELECT 1');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await db('outbox').where({ id: second!.id }).whereNull('published_at').first()).toBeDefined();

    nats.resume();
    await eventually(async () => (await unpublished()) === 0, 20_000);
    expect(await storedIds()).toEqual([first!.id, second!.id]);
  });

  it('two replicas relaying one outbox side by side publish every event once, in order', async () => {
    const replicaDb = createDb(database.url, 'relay_stalled', { min: 0, max: 1 });
    const log = createLogger('relay-replica', { LOG_LEVEL: 'silent', LOG_FORMAT: 'json' });
    const replicaBus = await connectBus({ url: nats.url, prefix: bus.prefix, name: 'relay-replica', log });
    const replica = startOutboxRelay({ db: replicaDb, bus: replicaBus, log });
    try {
      const written: { id: string }[] = [];
      for (let round = 0; round < 6; round++) {
        written.push(...(await write(Array.from({ length: 150 }, (_, i) => round * 150 + i))));
        replica.kick();
      }
      await eventually(async () => (await unpublished()) === 0, 60_000);
      expect(await storedIds()).toEqual(written.map((event) => event.id));
    } finally {
      await replica.stop();
      await replicaBus.nc.close();
      await replicaDb.destroy();
    }
  });

  it('publishes again from where a batch failed, keeping every event once and in order', async () => {
    const written = await write(Array.from({ length: 3000 }, (_, i) => i));
    await eventually(async () => (await unpublished()) < written.length, 20_000);
    nats.pause();
    await eventually(() => logs.lines.some((line) => line.msg === 'outbox relay could not publish; will retry'), 20_000);

    // What is marked sent is what JetStream acknowledged: a prefix of the outbox, none after a gap.
    const { last_sent: lastSent, first_waiting: firstWaiting } = (
      await db.raw<{ rows: { last_sent: number | null; first_waiting: number | null }[] }>(
        'SELECT max(seq) FILTER (WHERE published_at IS NOT NULL) AS last_sent, min(seq) FILTER (WHERE published_at IS NULL) AS first_waiting FROM outbox',
      )
    ).rows[0]!;
    expect(firstWaiting).not.toBeNull();
    expect(lastSent ?? 0).toBeLessThan(firstWaiting!);

    nats.resume();
    await eventually(async () => (await unpublished()) === 0, 60_000);
    expect(await storedIds()).toEqual(written.map((event) => event.id));
  });
});
