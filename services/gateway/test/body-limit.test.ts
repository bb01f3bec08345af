/**
 * Bodies above a route's limit are the client's mistake: the gateway answers 413 itself, before
 * the body reaches a service, and the connection either keeps working or is closed, never left
 * hanging. Driven over real sockets, since keep-alive and early answers do not exist in inject().
 */
import http from 'node:http';
import net from 'node:net';
import { ROSTER_MAX_BYTES } from '@crewswap/proto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';
import { DEFAULT_BODY_LIMIT } from '../src/route-table';

// Tens of megabytes over loopback on a shared machine: more than jest's default 5 s at times.
jest.setTimeout(60_000);

const ORIGIN = 'http://localhost:8080';
const TOO_LARGE = { error: 'Request body too large' };

/** A JSON body of exactly `bytes` bytes. */
function jsonOfSize(bytes: number): string {
  const frame = '{"email":"","password":"x"}';
  return frame.replace('""', `"${'a'.repeat(bytes - frame.length)}"`);
}

function multipartOfSize(fileBytes: number): { body: Buffer; contentType: string } {
  const boundary = '----crewswapRosterBoundary7MA4YWxkTrZu0gW';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="roster"; filename="roster.ics"\r\nContent-Type: text/calendar\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.alloc(fileBytes, 'A'), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

interface RawExchange {
  /** Everything the gateway wrote back, as text. */
  received: string;
  /** How the connection ended: 'close' when the gateway closed it cleanly. */
  ended: 'close' | 'error';
}

/** Writes `parts` on one socket, one after another, and reads until the gateway closes it. */
function rawExchange(port: number, parts: (string | Buffer)[]): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let failed = false;
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('error', () => {
      failed = true;
    });
    socket.on('close', () => resolve({ received, ended: failed ? 'error' : 'close' }));
    for (const part of parts) socket.write(part);
  });
}

function head(path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: 'localhost', origin: ORIGIN, ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** The status lines of the answers in a raw exchange. */
const statusLines = (text: string) => text.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];

describe('gateway body limits', () => {
  let upstream: FastifyInstance;
  let gateway: FastifyInstance;
  let port: number;
  const served: { url: string; bytes: number }[] = [];
  const upstreamAborts: (() => void)[] = [];

  beforeAll(async () => {
    // A service as the kit makes them: 1 MiB of JSON at most.
    upstream = Fastify({ bodyLimit: DEFAULT_BODY_LIMIT });
    upstream.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
      let bytes = 0;
      payload.on('data', (chunk: Buffer) => (bytes += chunk.length));
      payload.on('end', () => done(null, { bytes }));
    });
    upstream.addHook('onRequestAbort', (_request, done) => {
      upstreamAborts.shift()?.();
      done();
    });
    upstream.all('/api/*', async (request) => {
      const body = request.body as { bytes?: number } | undefined;
      served.push({ url: request.url, bytes: body?.bytes ?? JSON.stringify(body ?? '').length });
      return { served: request.url };
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as net.AddressInfo).port}`;
    const config = configSchema.parse({ LOG_LEVEL: 'silent', AUTH_URL: upstreamUrl, TRIPS_URL: upstreamUrl, ROSTER_INGEST_URL: upstreamUrl });
    gateway = (await createApp(config)).app;
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => {
    served.length = 0;
  });

  const post = (path: string, body: string | Buffer, contentType = 'application/json') =>
    fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': contentType }, body });

  it.each(['/api/auth/login', '/api/trips'])('a 20 MB JSON body to %s answers 413 Request body too large, and no service sees it', async (path) => {
    const response = await post(path, jsonOfSize(20 * 1024 * 1024));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(TOO_LARGE);
    expect(served).toEqual([]);
  });

  it('a body of exactly 1 MiB is passed on; one byte more is refused', async () => {
    expect((await post('/api/trips', jsonOfSize(DEFAULT_BODY_LIMIT))).status).toBe(200);
    expect(served).toEqual([{ url: '/api/trips', bytes: DEFAULT_BODY_LIMIT }]);
    expect((await post('/api/trips', jsonOfSize(DEFAULT_BODY_LIMIT + 1))).status).toBe(413);
  });

  it('a chunked body (no declared length) is counted as it streams and refused past the limit', async () => {
    const body = jsonOfSize(3 * 1024 * 1024);
    const exchange = await rawExchange(port, [
      head('/api/auth/login', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
      `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    ]);
    expect(statusLines(exchange.received)).toEqual(['HTTP/1.1 413']);
    expect(exchange.received).toContain(JSON.stringify(TOO_LARGE));
    const small = jsonOfSize(1000);
    const accepted = await rawExchange(port, [
      head('/api/auth/login', { 'content-type': 'application/json', 'transfer-encoding': 'chunked', connection: 'close' }),
      `${small.length.toString(16)}\r\n${small}\r\n0\r\n\r\n`,
    ]);
    expect(statusLines(accepted.received)).toEqual(['HTTP/1.1 200']);
    // The client asked for the connection to close; the service's own keep-alive is not passed on.
    expect(accepted.received).not.toMatch(/keep-alive/i);
  });

  it('a client that goes away in the middle of a chunked body ends the request to the service too', async () => {
    const abandoned = new Promise<void>((resolve) => upstreamAborts.push(resolve));
    const socket = net.connect(port, '127.0.0.1');
    socket.write(head('/api/trips', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
    socket.write('10\r\n{"route":"JFK",  \r\n', () => setTimeout(() => socket.destroy(), 200));
    // Without the abort passed on, the service would wait for the rest of the body until its timeout.
    await abandoned;
    expect(served).toEqual([]);
  });

  it('the roster upload takes a 10 MB calendar file in its multipart form, and refuses one larger than that: File size must be less than 10MB', async () => {
    const fits = multipartOfSize(ROSTER_MAX_BYTES);
    const response = await post('/api/roster/upload', fits.body, fits.contentType);
    expect(response.status).toBe(200);
    expect(served).toEqual([{ url: '/api/roster/upload', bytes: fits.body.length }]);
    const tooLarge = multipartOfSize(ROSTER_MAX_BYTES + 100 * 1024);
    const refused = await post('/api/roster/upload', tooLarge.body, tooLarge.contentType);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: 'File size must be less than 10MB', message: 'File size must be less than 10MB' });
  });

  it.each([
    ['declared', (body: string) => [head('/api/auth/login', { 'content-type': 'application/json', 'content-length': body.length }), body]],
    [
      'chunked',
      (body: string) => [
        head('/api/auth/login', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
        `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      ],
    ],
  ] as const)('after a refused %s body the keep-alive connection is answered 413 and then closed, not left hanging', async (_kind, request) => {
    const body = jsonOfSize(DEFAULT_BODY_LIMIT + 512 * 1024);
    const next = `GET /api/trips HTTP/1.1\r\nhost: localhost\r\n\r\n`;
    const exchange = await rawExchange(port, [...request(body), next]);
    // One answer (the 413), then a clean close: the request behind the refused body is not
    // read as part of it, and is not served on a connection that is closing.
    expect(statusLines(exchange.received)).toEqual(['HTTP/1.1 413']);
    expect(exchange.received).toMatch(/connection: close/i);
    expect(exchange.ended).toBe('close');
    expect(served).toEqual([]);
  });

  it('a keep-alive client goes on working after a refused body (its next request is answered)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, body?: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', agent, headers: { origin: ORIGIN, 'content-type': 'application/json' } }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        });
        request.on('error', reject);
        request.end(body);
      });
    try {
      expect((await send('/api/trips')).status).toBe(200);
      const refused = await send('/api/trips', jsonOfSize(DEFAULT_BODY_LIMIT + 1024));
      expect([refused.status, JSON.parse(refused.text)]).toEqual([413, TOO_LARGE]);
      expect((await send('/api/trips')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('a client that asks first (Expect: 100-continue) is refused without being invited to send the body', async () => {
    const exchange = await rawExchange(port, [
      head('/api/trips', { 'content-type': 'application/json', 'content-length': 20 * 1024 * 1024, expect: '100-continue' }),
    ]);
    expect(statusLines(exchange.received)).toEqual(['HTTP/1.1 413']);
    expect(exchange.ended).toBe('close');
  });
});
