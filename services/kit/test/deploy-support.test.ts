import { SUBJECTS } from '@crewswap/proto';
import { z } from 'zod';
import { baseConfigSchema, createServiceApp, deleteStreams, loadConfig, registerRuntimeMetrics, requiredInProduction, runMigrations, startDurableConsumer, startRuntime, type Runtime } from '../src';
import { createTestDatabase, testBaseConfig, testPilot } from '@crewswap/kit-testing';

describe('production mode', () => {
  const schema = baseConfigSchema.extend({ JWT_PRIVATE_KEY: requiredInProduction(z.string().optional()) });

  it('refuses to start without signing keys and DATABASE_URL, naming each', () => {
    expect(() => loadConfig(schema, { CREWSWAP_ENV: 'production', NATS_URL: 'nats://nats:4222' })).toThrow(
      /DATABASE_URL: must be set[\s\S]*JWT_PUBLIC_KEY: must be set[\s\S]*JWT_PRIVATE_KEY: must be set/,
    );
  });

  it('starts when production sets them, and locally on the defaults', () => {
    const env = { CREWSWAP_ENV: 'production', DATABASE_URL: 'postgres://db/crewswap', NATS_URL: 'nats://nats:4222', JWT_PUBLIC_KEY: 'pem', JWT_PRIVATE_KEY: 'pem', AUTH_URL: 'http://auth:8081', ADMIN_URL: 'http://admin:8084' };
    expect(loadConfig(schema, env).DATABASE_URL).toBe('postgres://db/crewswap');
    expect(loadConfig(schema, {}).DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/crewswap');
  });

  it('refuses an unknown CREWSWAP_ENV', () => {
    expect(() => loadConfig(schema, { CREWSWAP_ENV: 'prod' })).toThrow(/CREWSWAP_ENV: must be local or production/);
  });
});

describe('migrate-only entry', () => {
  it('creates the schema with the outbox on an empty database, and a second run changes nothing', async () => {
    const database = await createTestDatabase();
    try {
      const config = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' as const, LOG_FORMAT: 'json' as const };
      const first = await runMigrations({ name: 'kit-test', schema: 'kit_migrate', migrations: {} }, config);
      expect(first).toEqual(['0000_kit_outbox', '0001_kit_dead_letters', '0002_kit_outbox_trace_context', '0003_kit_idempotency_keys', '0004_kit_outbox_relay_lease']);
      expect(await runMigrations({ name: 'kit-test', schema: 'kit_migrate', migrations: {} }, config)).toEqual(first);
    } finally {
      await database.drop();
    }
  });
});

describe('runtime metrics', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let runtime: Runtime;

  beforeAll(async () => {
    database = await createTestDatabase();
    runtime = await startRuntime({ name: 'kit-metrics', schema: 'kit_metrics', migrations: {}, config: testBaseConfig(database.url) });
  });
  afterAll(async () => {
    await deleteStreams(runtime.bus);
    await runtime.close();
    await database.drop();
  });

  it('reports the outbox backlog and how far each durable consumer is behind', async () => {
    const app = createServiceApp({ name: 'kit-metrics', logger: runtime.log, readiness: runtime.readiness });
    registerRuntimeMetrics(app.metrics.registry, runtime);
    const consumer = await startDurableConsumer({
      db: runtime.db,
      bus: runtime.bus,
      log: runtime.log,
      stream: 'AUTH',
      durable: 'kit_metrics_test',
      filter: 'auth.pilot.>',
      subjects: [SUBJECTS.pilotRegistered],
      handler: { apply: async () => undefined },
    });
    await consumer.stop();
    // Nothing relays now: what is written waits in the outbox, and the stopped consumer falls behind.
    await runtime.relay.stop();
    await runtime.db.transaction((trx) => runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot: testPilot({}) }));
    for (let i = 0; i < 2; i += 1) {
      await runtime.bus.js.publish(runtime.bus.subject(SUBJECTS.pilotRegistered), JSON.stringify({ id: crypto.randomUUID() }));
    }

    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/^outbox_unpublished_events\{service="kit-metrics"\} 1$/m);
    expect(text).toMatch(/^outbox_oldest_unpublished_age_seconds\{service="kit-metrics"\} \d/m);
    expect(text).toMatch(/^nats_consumer_pending_messages\{stream="\w+_AUTH",durable="kit_metrics_test",service="kit-metrics"\} 2$/m);
    expect(text).toMatch(/^nats_consumer_ack_pending_messages\{stream="\w+_AUTH",durable="kit_metrics_test",service="kit-metrics"\} 0$/m);
    await app.close();
  });
});
