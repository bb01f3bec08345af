import Fastify, { type FastifyInstance } from 'fastify';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';
import { PASSED_OVER_MS, replicasOf } from '../src/replicas';

const ORIGIN = 'http://localhost:8080';

/** A stand-in for one replica of a service: it says which one it is. */
async function replica(name: string): Promise<{ url: string; app: FastifyInstance }> {
  const app = Fastify();
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.all('/api/trips', async (request) => ({ replica: name, body: request.body ?? null }));
  app.get('/api/sse/events', async (_request, reply) => reply.type('text/event-stream').send(`data: ${name}\n\n`));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, app };
}

/** An address where nothing listens: a replica that is down. */
async function downReplica(): Promise<string> {
  const { url, app } = await replica('down');
  await app.close();
  return url;
}

describe('a service run as several replicas behind the gateway', () => {
  let a: Awaited<ReturnType<typeof replica>>;
  let b: Awaited<ReturnType<typeof replica>>;
  let down: string;
  const gateways: FastifyInstance[] = [];
  const gatewayFor = async (urls: string[]) => {
    const { app } = await createApp(configSchema.parse({ LOG_LEVEL: 'silent', TRIPS_URL: urls.join(','), REALTIME_URL: urls.join(',') }));
    gateways.push(app);
    return app;
  };

  beforeAll(async () => {
    [a, b, down] = await Promise.all([replica('a'), replica('b'), downReplica()]);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await Promise.all([a.app.close(), b.app.close()]);
  });

  it('takes the replicas in turn, request by request', async () => {
    const gateway = await gatewayFor([a.url, b.url]);
    const answeredBy: string[] = [];
    for (let i = 0; i < 4; i += 1) answeredBy.push((await gateway.inject({ method: 'GET', url: '/api/trips' })).json().replica);
    expect(answeredBy).toEqual(['a', 'b', 'a', 'b']);
  });

  it('passes over a replica that is down: a read is sent on to the next, and every request after it skips the one down', async () => {
    // Each gateway's first request goes to the replica that is down.
    const gateway = await gatewayFor([down, a.url, b.url]);
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await gateway.inject({ method: 'GET', url: '/api/trips' }));
    for (let i = 0; i < 3; i += 1) answers.push(await gateway.inject({ method: 'POST', url: '/api/trips', headers: { origin: ORIGIN }, payload: { n: i } }));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((answer) => answer.json().replica)).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(answers.slice(3).map((answer) => answer.json().body)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  });

  it("reaches a pilot's event stream on whichever replica is up", async () => {
    const gateway = await gatewayFor([down, a.url]);
    for (let i = 0; i < 2; i += 1) {
      const stream = await gateway.inject({ method: 'GET', url: '/api/sse/events' });
      expect([stream.statusCode, stream.body]).toEqual([200, 'data: a\n\n']);
    }
  });

  it('says the service is not available when no replica is up', async () => {
    const gateway = await gatewayFor([down, down]);
    const response = await gateway.inject({ method: 'GET', url: '/api/trips' });
    expect([response.statusCode, response.json().error]).toEqual([503, 'The trips service is not available right now. Please try again shortly.']);
  });

  it('is ready while one replica of a service answers', async () => {
    const gateway = await gatewayFor([down, b.url]);
    const ready = await gateway.inject('/readyz');
    expect(ready.json().checks).toMatchObject({ trips: true, realtime: true });
  });
});

describe('replicas taken in turn', () => {
  it('passes over one that refused a connection for a while, then takes it again', () => {
    let now = 0;
    const replicas = replicasOf(['a', 'b', 'c'], () => now);
    replicas.refused('b');
    expect([replicas.next(), replicas.next(), replicas.next()]).toEqual(['a', 'c', 'a']);
    now += PASSED_OVER_MS;
    expect([replicas.next(), replicas.next(), replicas.next()]).toEqual(['b', 'c', 'a']);
  });

  it('still takes them in turn when every one has refused', () => {
    const replicas = replicasOf(['a', 'b'], () => 0);
    replicas.refused('a');
    replicas.refused('b');
    expect([replicas.next(), replicas.next()]).toEqual(['a', 'b']);
  });
});
