import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SUBJECTS } from '@crewswap/proto';
import { deleteStreams, KIT_RETENTION_DAYS, pruneKitTables, startRuntime, type Runtime } from '../src';
import { createTestDatabase, eventually, testBaseConfig, TEST_KEYS, uniqueName, freePort } from '@crewswap/kit-testing';

const ROOT = join(__dirname, '../../..');
const DAY_MS = 24 * 60 * 60 * 1000;

describe('restart server reaches every process; kit tables are pruned', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const prefix = uniqueName('t');
  let admin: Runtime;
  const started: Runtime[] = [];
  const start = async (name: string) => {
    const runtime = await startRuntime({ name, schema: name.replace('-', '_'), migrations: {}, config: testBaseConfig(database.url, prefix), keys: TEST_KEYS });
    started.push(runtime);
    return runtime;
  };
  const requestRestart = () => admin.db.transaction((trx) => admin.outbox.write(trx, SUBJECTS.systemRestart, { reason: 'requested by an admin' }));

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await start('admin');
  });
  afterAll(async () => {
    await deleteStreams(admin.bus);
    for (const runtime of started.reverse()) await runtime.close();
    await database.drop();
  });

  it('every replica of every service hears a restart requested after it started, and none replays an older one', async () => {
    const replicas = [await start('trips'), await start('trips'), await start('swaps')];
    const heard = replicas.map(() => 0);
    replicas.forEach((runtime, i) => runtime.onRestartRequested(() => (heard[i] = heard[i]! + 1)));
    await requestRestart();
    await eventually(async () => heard.every((count) => count === 1));

    // A process started after that request never hears it, however long it runs.
    const late = await start('trips');
    let lateHeard = 0;
    late.onRestartRequested(() => (lateHeard += 1));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(lateHeard).toBe(0);
    // A second request reaches it, and the others once more at most (they are exiting already).
    await requestRestart();
    await eventually(async () => lateHeard === 1);
    expect(heard).toEqual([1, 1, 1]);
  });

  it('a running service drains and exits 0 on a restart request, for its supervisor to start it again', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/notifications/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        NATS_PREFIX: prefix,
        PORT: String(port),
        JWT_PUBLIC_KEY: TEST_KEYS.publicKey,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // It listens only once its runtime (and so its restart consumer) has started.
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok === true, 90_000);
    await requestRestart();
    expect(await exited).toBe(0);
  }, 120_000);

  it('prunes processed-event records after 30 days and published outbox rows after 7, never an unpublished one', async () => {
    const runtime = admin;
    // The relay must leave the test rows alone (an unpublished one stays unpublished).
    await runtime.relay.stop();
    const now = new Date('2026-11-24T03:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS - 1000);
    await runtime.db('processed_events').insert([
      { consumer: 'c', event_id: randomUUID(), processed_at: ago(KIT_RETENTION_DAYS.processedEvents) },
      { consumer: 'c', event_id: randomUUID(), processed_at: ago(KIT_RETENTION_DAYS.processedEvents - 1) },
    ]);
    const row = (publishedAt: Date | null, createdAt: Date) => ({ id: randomUUID(), subject: 'x', envelope: '{}', created_at: createdAt, published_at: publishedAt });
    const kept = [row(ago(1), ago(1)), row(null, ago(60))];
    await runtime.db('outbox').insert([row(ago(KIT_RETENTION_DAYS.publishedOutbox), ago(8)), ...kept]);

    expect(await pruneKitTables(runtime.db, now)).toEqual({ processedEvents: 1, outbox: 1, idempotencyKeys: 0 });
    expect(await runtime.db('processed_events').where({ consumer: 'c' }).count({ n: '*' }).first()).toEqual({ n: 1 });
    const left = await runtime.db('outbox').whereIn('id', kept.map((r) => r.id)).pluck('id');
    expect(left.sort()).toEqual(kept.map((r) => r.id).sort());
  });
});
