import { SUBJECTS, type Pilot } from '@crewswap/proto';
import type { Knex } from 'knex';
import { createServiceApp, deleteStreams, signPilotToken, startDurableConsumer, startRuntime, PILOT_COOKIE, type Runtime } from '../src';
import { createTestDatabase, eventually, testBaseConfig, testPilot, TEST_KEYS } from '@crewswap/kit-testing';

const pilot: Pilot = testPilot({ id: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f' });

const migrations = {
  '0001_notes': {
    async up(knex: Knex) {
      await knex.schema.createTable('notes', (table) => {
        table.uuid('id').primary();
        table.integer('seen').notNullable().defaultTo(0);
      });
    },
  },
};

describe('service kit runtime', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let runtime: Runtime;

  beforeAll(async () => {
    database = await createTestDatabase();
    runtime = await startRuntime({ name: 'kit-test', schema: 'kit_test', migrations, config: testBaseConfig(database.url) });
  });
  afterAll(async () => {
    await deleteStreams(runtime.bus);
    await runtime.close();
    await database.drop();
  });

  it('runs migrations in the service schema', async () => {
    const tables = await runtime.db('information_schema.tables').where({ table_schema: 'kit_test' }).pluck('table_name');
    expect(tables).toEqual(expect.arrayContaining(['notes', 'outbox', 'processed_events']));
  });

  it('publishes an outbox event after commit and applies it once even when redelivered', async () => {
    await runtime.db('notes').insert({ id: pilot.id });
    const consumer = await startDurableConsumer({
      db: runtime.db,
      bus: runtime.bus,
      log: runtime.log,
      stream: 'AUTH',
      durable: 'kit_test_notes',
      filter: 'auth.pilot.>',
      subjects: [SUBJECTS.pilotRegistered],
      handler: {
        apply: async (event, _prepared, trx) => {
          await trx('notes').where({ id: event.data.pilot.id }).increment('seen', 1);
        },
      },
    });
    const envelope = await runtime.db.transaction((trx) => runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
    await eventually(async () => (await runtime.db('notes').first()).seen === 1);

    // A second publish with the same message id is dropped by JetStream's dedupe window.
    await runtime.bus.js.publish(runtime.bus.subject(SUBJECTS.pilotRegistered), JSON.stringify(envelope), { msgID: envelope.id });
    // And a copy under a new message id (a redelivery in effect) is ignored by the consumer.
    await runtime.bus.js.publish(runtime.bus.subject(SUBJECTS.pilotRegistered), JSON.stringify(envelope));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await runtime.db('notes').first()).seen).toBe(1);
    expect(await runtime.db('outbox').whereNull('published_at').count({ n: '*' }).first()).toEqual({ n: 0 });
    await consumer.stop();
  });

  it('refuses a revoked session once the revocation event arrives, saying why it ended', async () => {
    const app = createServiceApp({ name: 'kit-test', logger: runtime.log, readiness: runtime.readiness });
    app.get('/whoami', async (request) => runtime.guard.pilot(request));
    const token = signPilotToken(TEST_KEYS.privateKey, { sessionId: '0e6b1f4a-1111-4c6d-8e7f-0a1b2c3d4e5f', pilotId: pilot.id });
    const ask = () => app.inject({ method: 'GET', url: '/whoami', cookies: { [PILOT_COOKIE]: token } });
    expect((await ask()).statusCode).toBe(200);
    await runtime.db.transaction((trx) =>
      runtime.outbox.write(trx, SUBJECTS.sessionRevoked, { sessionId: '0e6b1f4a-1111-4c6d-8e7f-0a1b2c3d4e5f', pilotId: pilot.id, reason: 'logout' }),
    );
    await eventually(async () => (await ask()).statusCode === 401, 10_000);
    expect((await ask()).json()).toEqual({ error: 'Session expired', sessionEnded: 'logout' });
    await app.close();
  });

  it('refuses a session that must change its password with auth\'s message, except on the change itself', async () => {
    const app = createServiceApp({ name: 'kit-test', logger: runtime.log, readiness: runtime.readiness });
    app.get('/api/trips', async (request) => runtime.guard.pilot(request));
    app.post('/api/auth/force-password-change', async (request) => runtime.guard.pilot(request, { allowForcedChange: true }));
    const session = { sessionId: '0e6b1f4a-2222-4c6d-8e7f-0a1b2c3d4e5f', pilotId: pilot.id };
    const flagged = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { ...session, mustChangePassword: true }) };
    const refused = await app.inject({ method: 'GET', url: '/api/trips', cookies: flagged });
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { error: 'You must change your password before continuing.', title: 'Password Change Required', forcePasswordChange: true },
    ]);
    expect((await app.inject({ method: 'POST', url: '/api/auth/force-password-change', cookies: flagged })).statusCode).toBe(200);
    const reissued = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, session) };
    expect((await app.inject({ method: 'GET', url: '/api/trips', cookies: reissued })).statusCode).toBe(200);
    await app.close();
  });

  it('answers health, readiness and metrics', async () => {
    const app = createServiceApp({ name: 'kit-test', logger: runtime.log, readiness: runtime.readiness });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
    const ready = await app.inject('/readyz');
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: true, nats: true, revocations: true, sessions: true } });
    const metrics = await app.inject('/metrics');
    expect(metrics.body).toContain('http_request_duration_seconds');
    expect(metrics.body).toContain('process_cpu_user_seconds_total');
    await app.close();
  });

  it('answers a unique violation (two requests racing past a read-then-insert) with 409, never 500', async () => {
    const { ALREADY_EXISTS_MESSAGE } = await import('../src');
    const app = createServiceApp({ name: 'kit-test', logger: runtime.log, readiness: {} });
    const id = '0b7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4';
    app.post('/notes', async () => {
      // The check a use case would make first, then the insert: both requests pass the check.
      const taken = await runtime.db('notes').where({ id }).first();
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!taken) await runtime.db('notes').insert({ id });
      return { id };
    });
    const answers = await Promise.all([1, 2, 3].map(() => app.inject({ method: 'POST', url: '/notes' })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json()).toEqual({ error: ALREADY_EXISTS_MESSAGE });
    await app.close();
  });
});

describe('request bodies', () => {
  it('takes an empty body sent as JSON as no body, and refuses broken JSON with 400', async () => {
    const { createServiceApp: create, createLogger } = await import('../src');
    const app = create({ name: 'kit-test', logger: createLogger('kit-test', { LOG_LEVEL: 'silent', LOG_FORMAT: 'json' }), readiness: {} });
    app.post('/echo', async (request) => ({ body: request.body ?? null }));
    const empty = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' } });
    expect(empty.json()).toEqual({ body: null });
    const broken = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: 'The request body is not valid JSON.' });
    const poisoned = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' });
    expect(poisoned.statusCode).toBe(400);
    await app.close();
  });

  it('refuses with 415 a body it would read wrong: another charset than UTF-8, or compressed', async () => {
    const { createServiceApp: create, createLogger, UNSUPPORTED_CHARSET_MESSAGE, UNSUPPORTED_ENCODING_MESSAGE } = await import('../src');
    const { brotliCompressSync, gzipSync } = await import('node:zlib');
    const app = create({ name: 'kit-test', logger: createLogger('kit-test', { LOG_LEVEL: 'silent', LOG_FORMAT: 'json' }), readiness: {} });
    app.post('/echo', async (request) => ({ body: request.body ?? null }));
    const send = (headers: Record<string, string>, payload: string | Buffer) => app.inject({ method: 'POST', url: '/echo', headers, payload });
    for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1', '"latin1"']) {
      const response = await send({ 'content-type': `application/json; charset=${charset}` }, Buffer.from('{"a":"é"}', 'utf16le'));
      expect([response.statusCode, response.json()]).toEqual([415, { error: UNSUPPORTED_CHARSET_MESSAGE }]);
    }
    for (const [encoding, payload] of [['br', brotliCompressSync('{"a":1}')], ['gzip', gzipSync('{"a":1}')], ['deflate', Buffer.from('x')]] as const) {
      const response = await send({ 'content-type': 'application/json', 'content-encoding': encoding }, payload);
      expect([response.statusCode, response.json()]).toEqual([415, { error: UNSUPPORTED_ENCODING_MESSAGE }]);
    }
    // UTF-8 said either way, or not said, is read as it always was.
    for (const type of ['application/json; charset=utf-8', 'application/json; charset=UTF8', 'application/json']) {
      expect((await send({ 'content-type': type, 'content-encoding': 'identity' }, '{"a":"é"}')).json()).toEqual({ body: { a: 'é' } });
    }
    await app.close();
  });
});
