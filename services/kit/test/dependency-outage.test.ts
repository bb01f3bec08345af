import { PassThrough } from 'node:stream';
import pino from 'pino';
import { createDb, createServiceApp, isDatabaseReachable, unreachableDependency } from '../src';

/** A port on which nothing listens: connecting is refused at once, as while Postgres is down. */
async function closedPort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('a dependency that cannot be reached', () => {
  it('answers 503 with Retry-After, not 500, and the log line names the database', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach((line) => lines.push(JSON.parse(line))));
    const logger = pino({ level: 'info' }, stream);
    const db = createDb(`postgres://postgres@127.0.0.1:${await closedPort()}/nothing`, 'nothing', undefined, logger);
    const app = createServiceApp({
      name: 'trips',
      logger,
      readiness: { database: () => isDatabaseReachable(db), nats: { required: false, check: async () => true } },
    });
    app.get('/api/things', async () => db('things').select());
    try {
      const response = await app.inject('/api/things');
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({ error: 'The trips service is not available right now. Please try again shortly.' });
      expect(lines).toContainEqual(expect.objectContaining({ level: 50, dependency: 'database', msg: 'database unavailable' }));

      const ready = await app.inject('/readyz');
      expect([ready.statusCode, ready.json()]).toEqual([503, { status: 'not ready', checks: { database: false, nats: true } }]);
      const metrics = await app.inject('/metrics');
      expect(metrics.body).toMatch(/dependency_up\{dependency="database",service="trips"\} 0/);
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it('NATS away leaves the service ready: reported as degraded and in dependency_up, not taken out of service', async () => {
    const app = createServiceApp({
      name: 'trips',
      logger: pino({ level: 'silent' }),
      readiness: { database: async () => true, nats: { required: false, check: async () => false } },
    });
    const ready = await app.inject('/readyz');
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'degraded', checks: { database: true, nats: false } }]);
    expect((await app.inject('/metrics')).body).toMatch(/dependency_up\{dependency="nats",service="trips"\} 0/);
    await app.close();
  });
});

describe('telling an outage from a bug', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'database'],
    ['a connection cut inside a transaction', new Error('ROLLBACK - Connection terminated unexpectedly'), 'database'],
    ['Postgres shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), 'database'],
    ['Postgres starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), 'database'],
    ["knex's pool timing out", Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }), 'database'],
    ['NATS away', Object.assign(new Error('TIMEOUT'), { name: 'NatsError', code: 'TIMEOUT' }), 'nats'],
    ['a NATS stream that does not exist', Object.assign(new Error('stream not found'), { name: 'NatsError', code: '404' }), undefined],
    ['a unique violation', Object.assign(new Error('duplicate key value'), { code: '23505' }), undefined],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')"), undefined],
  ])('%s', (_name, error, dependency) => {
    expect(unreachableDependency(error)).toBe(dependency);
  });
});
