/**
 * Pilots' event streams through the gateway to the real realtime service (and the real NATS):
 * every pilot who opens the app gets a stream, however many are open at once, while other
 * requests are still answered; an update reaches the pilot at once; a stream the pilot leaves is
 * closed at realtime too.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connectBus, createLogger, deleteStreams, PILOT_COOKIE, signPilotToken, type Bus } from '@crewswap/kit';
import { eventually, openStream, TEST_KEYS, testBaseConfig, type SseStream } from '@crewswap/kit-testing';
import { realtimePilotSubject } from '@crewswap/proto';
import { createApp as createRealtime, configSchema as realtimeConfigSchema, type RealtimeService } from '@crewswap/realtime';
import Fastify, { type FastifyInstance } from 'fastify';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';

jest.setTimeout(60_000);

/** Well past the 64 connections a service gets for ordinary requests. */
const PILOTS = 300;

describe('event streams through the gateway', () => {
  let realtime: RealtimeService;
  let trips: FastifyInstance;
  let gateway: FastifyInstance;
  let bus: Bus;
  let base: string;
  const streams: { pilotId: string; stream: SseStream }[] = [];
  const config = testBaseConfig('postgres://unused@127.0.0.1/none');

  const cookieFor = (pilotId: string) => `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId })}`;
  const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

  beforeAll(async () => {
    realtime = await createRealtime({ ...realtimeConfigSchema.parse({}), ...config }, { keys: TEST_KEYS });
    await realtime.app.listen({ port: 0, host: '127.0.0.1' });
    trips = Fastify();
    trips.get('/healthz', async () => ({ status: 'ok' }));
    trips.get('/api/trips', async () => ({ trips: [] }));
    await trips.listen({ port: 0, host: '127.0.0.1' });
    gateway = (
      await createApp(
        configSchema.parse({
          LOG_LEVEL: 'silent',
          REALTIME_URL: `http://127.0.0.1:${portOf(realtime.app)}`,
          TRIPS_URL: `http://127.0.0.1:${portOf(trips)}`,
        }),
      )
    ).app;
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${portOf(gateway)}`;
    bus = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name: 'test', log: createLogger('test', config) });
  });
  afterAll(async () => {
    for (const { stream } of streams) stream.close();
    await gateway?.close();
    await trips?.close();
    await realtime?.close();
    if (bus) {
      await deleteStreams(bus);
      await bus.close();
    }
  });

  it(`gives each of ${PILOTS} pilots opening the app at once a connected stream, while other requests are answered`, async () => {
    let connected = 0;
    const opening = Array.from({ length: PILOTS }, async () => {
      const pilotId = randomUUID();
      const stream = await openStream(`${base}/api/sse/events`, cookieFor(pilotId));
      streams.push({ pilotId, stream });
      await stream.next('connected');
      connected += 1;
    });
    // A stream that never connects would hang for ever: count what connected by a deadline instead.
    let deadline: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(opening), new Promise((resolve) => (deadline = setTimeout(resolve, 30_000)))]);
    clearTimeout(deadline);
    expect(connected).toBe(PILOTS);
    expect(realtime.hub.size()).toBe(PILOTS);

    const other = await fetch(`${base}/api/trips`);
    expect([other.status, await other.json()]).toEqual([200, { trips: [] }]);

    // The streams are counted as streams, not as requests that take for ever.
    const text = await gateway.metrics.registry.metrics();
    expect(text).toMatch(new RegExp(`^sse_streams_open\\{[^}]*route="/api/sse/events"[^}]*\\} ${PILOTS}$`, 'm'));
    const timed = text.split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count{'));
    expect(timed).toEqual([expect.stringMatching(/ 1$/)]);
  });

  it("passes realtime's refusal of a stream without a session on as it is", async () => {
    const refused = await openStream(`${base}/api/sse/events`);
    expect([refused.status, refused.body]).toEqual([401, { error: 'Session expired' }]);
  });

  it('passes an update on to the pilot as soon as realtime sends it', async () => {
    const { pilotId, stream } = streams[0]!;
    const update = { type: 'trips-updated', message: 'trips-updated', channel: 'admin', at: new Date().toISOString() };
    bus.nc.publish(bus.subject(realtimePilotSubject(pilotId)), JSON.stringify(update));
    expect(await stream.next('trips-updated')).toEqual(update);
  });

  it('closes the stream at realtime when the pilot leaves', async () => {
    for (const { stream } of streams.splice(0)) stream.close();
    await eventually(() => realtime.hub.size() === 0, 10_000);
    const text = await gateway.metrics.registry.metrics();
    expect(text).toMatch(/^sse_streams_open\{[^}]*route="\/api\/sse\/events"[^}]*\} 0$/m);
    expect(text).toMatch(new RegExp(`^sse_stream_duration_seconds_count\\{[^}]*route="/api/sse/events"[^}]*\\} ${PILOTS}$`, 'm'));
  });
});

describe('an event stream while realtime is down', () => {
  it('answers 503 JSON naming the service, as for any other path', async () => {
    // Nothing listens on port 9.
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', REALTIME_URL: 'http://127.0.0.1:9' }))).app;
    try {
      const response = await gateway.inject({ method: 'GET', url: '/api/sse/events' });
      expect([response.statusCode, response.json()]).toEqual([503, { error: 'The realtime service is not available right now. Please try again shortly.' }]);
    } finally {
      await gateway.close();
    }
  });
});

describe('an event stream to a client that stops reading', () => {
  it('pauses the service instead of piling the stream up in the gateway', async () => {
    const { connect } = await import('node:net');
    const chunk = `data: ${'x'.repeat(64 * 1024)}\n\n`;
    /** Far more than the socket buffers between the three can hold. */
    const enough = 256 * 1024 * 1024;
    let written = 0;
    const upstream = Fastify();
    upstream.get('/healthz', async () => ({ status: 'ok' }));
    upstream.get('/api/sse/events', (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      const pour = () => {
        while (written < enough) {
          written += chunk.length;
          if (!reply.raw.write(chunk)) return void reply.raw.once('drain', pour);
        }
      };
      pour();
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', REALTIME_URL: `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}` }))).app;
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const client = connect((gateway.server.address() as AddressInfo).port, '127.0.0.1');
    try {
      client.pause();
      client.write('GET /api/sse/events HTTP/1.1\r\nHost: localhost\r\n\r\n');
      // Once every buffer on the way is full, the service is held still.
      let last = -1;
      await eventually(async () => {
        const now = written;
        await new Promise((resolve) => setTimeout(resolve, 300));
        const still = now > 0 && now === written && now === last;
        last = now;
        return still;
      }, 20_000);
      expect(written).toBeLessThan(enough);
    } finally {
      client.destroy();
      await gateway.close();
      await upstream.close();
    }
  });
});

describe('closing the gateway while pilots have streams open', () => {
  it('ends their streams at once (each reconnects to another replica) instead of waiting for them to end', async () => {
    const upstream = Fastify({ forceCloseConnections: true });
    upstream.get('/healthz', async () => ({ status: 'ok' }));
    // A stream that never ends on its own, as realtime's.
    upstream.get('/api/sse/events', (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      reply.raw.write(': open\n\n');
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', REALTIME_URL: `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}` }))).app;
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(`http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}/api/sse/events`);
    try {
      expect(stream.status).toBe(200);
      const within = (promise: Promise<unknown>) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, 5_000, 'still waiting');
          void promise.then(() => {
            clearTimeout(timer);
            resolve('done');
          });
        });
      expect(await within(gateway.close())).toBe('done');
      expect(await within(stream.ended)).toBe('done');
    } finally {
      stream.close();
      await upstream.close();
    }
  });
});
