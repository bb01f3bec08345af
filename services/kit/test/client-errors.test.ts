import { request } from 'node:http';
import pino from 'pino';
import { createServiceApp, HEADERS_TOO_LARGE_MESSAGE } from '../src';

/** A GET with these headers over a real socket: its status and body, or how the connection failed. */
function send(port: number, headers: Record<string, string>): Promise<{ status?: number; body?: string; failed?: string }> {
  return new Promise((resolve) => {
    const outgoing = request({ host: '127.0.0.1', port, path: '/healthz', headers }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode, body }));
    });
    outgoing.on('error', (error) => resolve({ failed: error.message }));
    outgoing.end();
  });
}

describe('a request whose headers are too large', () => {
  const apps = [
    { at: 'the edge (gateway)', app: createServiceApp({ name: 'edge', logger: pino({ level: 'silent' }), readiness: {}, trustRequestContext: false }) },
    { at: 'a service', app: createServiceApp({ name: 'service', logger: pino({ level: 'silent' }), readiness: {} }) },
  ];
  beforeAll(async () => {
    for (const { app } of apps) await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const { app } of apps) await app.close();
  });
  const portOf = (index: number) => (apps[index]!.app.server.address() as { port: number }).port;

  it.each([
    ['a 60 KB cookie at the edge', 0, { cookie: `a=${'b'.repeat(60_000)}` }],
    ['a 20 KB header of any name at the edge', 0, { 'x-note': 'n'.repeat(20_000) }],
    ['a 60 KB cookie at a service', 1, { cookie: `a=${'b'.repeat(60_000)}` }],
    ['a 40 KB header at a service', 1, { 'x-note': 'n'.repeat(40_000) }],
  ])('is answered 431 with a sentence, not a reset connection: %s', async (_what, index, headers) => {
    const answer = await send(portOf(index), headers);
    expect(answer).toEqual({ status: 431, body: JSON.stringify({ error: HEADERS_TOO_LARGE_MESSAGE }) });
  });

  it('a 10 KB Content-Type is read and answered like any other request', async () => {
    for (const index of [0, 1]) expect((await send(portOf(index), { 'content-type': 'a'.repeat(10_000) })).status).toBe(200);
  });

  it('a service takes what the edge let through plus the headers the gateway adds', async () => {
    const answer = await send(portOf(1), { cookie: `a=${'b'.repeat(16_000)}`, traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`, 'x-forwarded-for': '203.0.113.9' });
    expect(answer.status).toBe(200);
  });
});
