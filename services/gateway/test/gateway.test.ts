import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startMetricsServer } from '@crewswap/kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';
import { WHOLE_BODY_MAX } from '../src/forwarding';
import { ownerOf } from '../src/route-table';

const ORIGIN = 'http://localhost:8080';

describe('route table', () => {
  it.each([
    ['/api/auth/login', 'auth'],
    ['/api/pilot/current', 'auth'],
    ['/api/pilot/month?month=2026-11', 'trips'],
    ['/api/pilots/abc/check-master-roster-cooldown', 'auth'],
    ['/api/check-deleted-pilot/123456', 'auth'],
    ['/api/restore-pilot', 'auth'],
    ['/api/admin/pilots?fleet=A350', 'auth'],
    ['/api/admin/sessions/active', 'auth'],
    ['/api/admin/cleanup/deleted-pilots/1', 'auth'],
    ['/api/admin/cleanup/run', 'admin'],
    ['/api/admin/login', 'admin'],
    ['/api/admin/settings/swap_search_days', 'admin'],
    ['/api/settings/swap_search_days', 'admin'],
    ['/api/trips', 'trips'],
    ['/api/trips/abc/swappable', 'trips'],
    ['/api/trips/abc/matches?startDate=2026-12-01', 'swaps'],
    ['/api/trips/abc/send-notifications', 'swaps'],
    ['/api/available-swaps', 'swaps'],
    ['/api/iata-codes', 'trips'],
    ['/api/admin/iata-codes/1', 'trips'],
    ['/api/admin/excluded-airports', 'trips'],
    ['/api/notifications/preferences', 'notifications'],
    ['/api/sse/events', 'realtime'],
    ['/api/roster/upload', 'roster-ingest'],
    ['/api/roster/upload-address', 'roster-ingest'],
    ['/api/calendar/feed', 'trips'],
    ['/api/calendar/AAAAAAAAAAAAAAAAAAAAAA.ics', 'trips'],
    ['/api/crew-links', 'links'],
  ])('%s is answered by %s', (path, service) => {
    expect(ownerOf(path)).toBe(service);
  });

  it('knows no owner for an unknown api path', () => {
    expect(ownerOf('/api/nothing-here')).toBeUndefined();
    expect(ownerOf('/api/tripsx')).toBeUndefined();
  });
});

describe('gateway', () => {
  let upstream: FastifyInstance;
  let gateway: FastifyInstance;
  const seen: { url: string; requestId?: string }[] = [];

  beforeAll(async () => {
    upstream = Fastify();
    upstream.get('/healthz', async () => ({ status: 'ok' }));
    // A service's page (the digest's unsubscribe form is HTML): answered with the page headers.
    upstream.get('/api/notifications/digest/unsubscribe', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><form method="post"></form>'));
    upstream.all('/api/*', async (request) => {
      seen.push({ url: request.url, requestId: request.headers['x-request-id'] as string | undefined });
      return { servedBy: 'upstream', url: request.url };
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const port = (upstream.server.address() as { port: number }).port;
    const dist = mkdtempSync(join(tmpdir(), 'crewswap-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>CrewSwap</title>');
    const config = configSchema.parse({
      LOG_LEVEL: 'silent',
      AUTH_URL: `http://127.0.0.1:${port}`,
      TRIPS_URL: `http://127.0.0.1:${port}`,
      NOTIFICATIONS_URL: `http://127.0.0.1:${port}`,
      // nothing listens here: the swaps service is "down"
      SWAPS_URL: 'http://127.0.0.1:9',
      WEB_DIST: dist,
      AUTH_RATE_LIMIT_PER_MINUTE: '5',
      CALENDAR_FEED_RATE_LIMIT_PER_MINUTE: '3',
    });
    gateway = (await createApp(config)).app;
    await gateway.ready();
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('forwards an api call to its owner with a request id', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/trips?x=1' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ servedBy: 'upstream', url: '/api/trips?x=1' });
    expect(seen.at(-1)?.requestId).toBe(response.headers['x-request-id']);
  });

  it('refuses a mutating request without the app origin', async () => {
    const missing = await gateway.inject({ method: 'POST', url: '/api/trips', payload: {} });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error).toMatch(/did not come from the CrewSwap app/);
    const foreign = await gateway.inject({ method: 'DELETE', url: '/api/trips/1', headers: { origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    const ours = await gateway.inject({ method: 'POST', url: '/api/trips', headers: { origin: ORIGIN }, payload: { a: 1 } });
    expect(ours.statusCode).toBe(200);
  });

  it('answers 404 JSON for an unknown api path', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/unknown/thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No such API path: GET /api/unknown/thing' });
  });

  it('answers 503 JSON naming the service when its owner is down', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/trips/abc/matches' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe('The swaps service is not available right now. Please try again shortly.');
  });

  it('serves the web app for its own routes and a 404 page for any other', async () => {
    for (const path of ['/', '/upload-roster', '/share-roster', '/admin', '/admin/login', '/admin-preview']) {
      const response = await gateway.inject({ method: 'GET', url: path });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<title>CrewSwap</title>');
    }
    const other = await gateway.inject({ method: 'GET', url: '/no/such/page' });
    expect(other.statusCode).toBe(404);
    expect(other.body).toContain('<title>CrewSwap</title>');
  });

  it("gives the app's pages the page security headers", async () => {
    const response = await gateway.inject({ method: 'GET', url: '/' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // Features the app never uses are off; copying to the clipboard stays the app's own.
    expect(response.headers['permissions-policy']).toContain('camera=()');
    expect(response.headers['permissions-policy']).toContain('geolocation=()');
    expect(response.headers['permissions-policy']).toContain('clipboard-write=(self)');
  });

  it('gives API answers the API headers: nothing loads in them or frames them, nothing is sniffed, no page-only policy', async () => {
    const answers = [
      await gateway.inject({ method: 'GET', url: '/api/trips' }),
      // The gateway's own refusals too.
      await gateway.inject({ method: 'DELETE', url: '/api/trips/1', headers: { origin: 'https://evil.example' } }),
      await gateway.inject({ method: 'GET', url: '/api/nothing-here' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 403, 404]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(answer.headers['strict-transport-security']).toContain('max-age=');
      expect(answer.headers['permissions-policy']).toBeUndefined();
    }
  });

  it("gives a page a service answers (the digest's unsubscribe form) and the API reference the page headers", async () => {
    for (const url of ['/api/notifications/digest/unsubscribe?token=t', '/api/docs']) {
      const response = await gateway.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
      expect(response.headers['permissions-policy']).toContain('camera=()');
    }
  });

  it('rate limits auth paths by client address, and only those', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const response = await gateway.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, payload: {} });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await gateway.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, payload: {} });
    expect(limited.json().error).toMatch(/Too many attempts/);
    const other = await gateway.inject({ method: 'GET', url: '/api/trips' });
    expect(other.statusCode).toBe(200);
  });

  it('rate limits each calendar feed by its address, whoever asks', async () => {
    const feed = (token: string, from: string) => gateway.inject({ method: 'GET', url: `/api/calendar/${token}.ics`, remoteAddress: from });
    const statuses: number[] = [];
    for (const from of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']) statuses.push((await feed('A'.repeat(22), from)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await feed('A'.repeat(22), '10.0.0.5');
    expect(limited.json().error).toMatch(/^This calendar feed was asked for too often\. Please wait \d+ seconds and try again\.$/);
    // Another feed, even from the same address, has its own allowance.
    expect((await feed('B'.repeat(22), '10.0.0.1')).statusCode).toBe(200);
  });

  it('answers health', async () => {
    expect((await gateway.inject('/healthz')).statusCode).toBe(200);
  });

  it('is ready while it reaches its upstreams, and reports each one', async () => {
    const ready = await gateway.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'degraded', checks: { upstreams: true, auth: true, trips: true, swaps: false } });
  });

  it('says when to retry when an upstream is down', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/trips/abc/matches' });
    expect([response.statusCode, response.headers['retry-after']]).toEqual([503, '5']);
  });

  it("never serves metrics on its public port, nor passes on a service's internal paths (/internal/sessions), nor lets a path climb out of /api to a service", async () => {
    expect((await gateway.inject('/metrics')).statusCode).toBe(404);
    // Over a real socket, as an attacker sends them (inject would tidy the dots away first).
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gateway.server.address() as { port: number };
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    for (const path of ['/metrics', '/api/trips/../../metrics', '/api/trips/%2e%2e/%2E%2E/metrics', '/api/trips/./x', `/internal/sessions/${randomUUID()}`, `/api/../internal/sessions/${randomUUID()}`]) {
      expect([path, await get(path)]).toEqual([path, 404]);
    }
    expect(seen.some((forwarded) => forwarded.url.includes('/.') || /%2e/i.test(forwarded.url) || forwarded.url.includes('/internal'))).toBe(false);
  });

  it('serves its metrics on a port of their own', async () => {
    const metrics = await startMetricsServer(gateway.metrics.registry, { port: 0, host: '127.0.0.1' });
    try {
      await gateway.inject({ method: 'GET', url: '/api/trips' });
      const response = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('http_request_duration_seconds');
      expect(text).toMatch(/dependency_up\{dependency="swaps",service="gateway"\} 0/);
      expect((await fetch(`http://127.0.0.1:${metrics.port}/api/trips`)).status).toBe(404);
    } finally {
      await metrics.close();
    }
  });
});

describe('gateway readiness with no upstream reachable', () => {
  it('is not ready: it could not serve a single api call', async () => {
    const nowhere = 'http://127.0.0.1:9';
    const config = configSchema.parse({
      LOG_LEVEL: 'silent',
      ...Object.fromEntries(['AUTH', 'TRIPS', 'SWAPS', 'ADMIN', 'NOTIFICATIONS', 'ROSTER_INGEST', 'REALTIME', 'LINKS'].map((name) => [`${name}_URL`, nowhere])),
    });
    const { app } = await createApp(config);
    const ready = await app.inject('/readyz');
    expect([ready.statusCode, ready.json().status, ready.json().checks.upstreams]).toEqual([503, 'not ready', false]);
    await app.close();
  });
});

describe('gateway compression and rebuilt assets', () => {
  it('compresses JSON answers for clients that accept gzip, and serves files added after start', async () => {
    const upstream = Fastify();
    const big = { items: Array.from({ length: 500 }, (_, i) => ({ iataCode: `A${i}`, municipality: 'Somewhere far away' })) };
    upstream.get('/api/iata-codes', async () => big);
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const port = (upstream.server.address() as { port: number }).port;
    const dist = mkdtempSync(join(tmpdir(), 'crewswap-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>CrewSwap</title>');
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', TRIPS_URL: `http://127.0.0.1:${port}`, WEB_DIST: dist }))).app;
    try {
      const response = await gateway.inject({ method: 'GET', url: '/api/iata-codes', headers: { 'accept-encoding': 'gzip' } });
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(response.rawPayload).toString())).toEqual(big);

      writeFileSync(join(dist, 'app-new.js'), 'console.log(1)');
      const asset = await gateway.inject({ method: 'GET', url: '/app-new.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});

describe('gateway proxying', () => {
  let upstream: FastifyInstance;
  let gateway: FastifyInstance;
  /** The gateway's side of each connection an api request came in on. */
  const sockets = new Set<number>();
  const big = 'x'.repeat(WHOLE_BODY_MAX + 10_000);
  let unavailableAsked = 0;

  beforeAll(async () => {
    upstream = Fastify();
    upstream.get('/api/trips', async (request) => {
      sockets.add(request.socket.remotePort ?? 0);
      return { small: true };
    });
    upstream.get('/api/stats', async (_request, reply) => reply.type('text/plain').send(big));
    // Echoes the body exactly as it arrived, with its encoding.
    upstream.removeAllContentTypeParsers();
    upstream.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    upstream.post('/api/trips', async (request) => ({
      encoding: request.headers['content-encoding'] ?? null,
      bytes: (request.body as Buffer).toString('base64'),
    }));
    upstream.get('/api/iata-codes', async (_request, reply) =>
      reply.header('content-encoding', 'gzip').type('application/json').send(gzipSync(JSON.stringify(['AAA', 'BBB']))),
    );
    // A service whose database is down.
    upstream.get('/api/usual-requests', async (_request, reply) => {
      unavailableAsked += 1;
      return reply.status(503).header('retry-after', '5').send({ error: 'The trips service is not available right now. Please try again shortly.' });
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const port = (upstream.server.address() as { port: number }).port;
    gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', TRIPS_URL: `http://127.0.0.1:${port}` }))).app;
    await gateway.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('reuses its connections to a service instead of opening one per request', async () => {
    sockets.clear();
    for (let i = 0; i < 20; i += 1) {
      expect((await gateway.inject({ method: 'GET', url: '/api/trips' })).statusCode).toBe(200);
    }
    // A request may go out the moment the one before it ends, while its connection is still being
    // put back in the pool: so two, used in turn, but never a new one per request.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('sends a small answer as it is, never gzipped, with the security headers', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/trips', headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ small: true });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('passes on an answer the service gzipped itself, untouched', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/iata-codes', headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(response.rawPayload).toString())).toEqual(['AAA', 'BBB']);
  });

  it('passes a compressed request body on as it came, never unpacked on the way', async () => {
    const zipped = gzipSync(JSON.stringify({ route: 'JFK' }));
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/trips',
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zipped,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ encoding: 'gzip', bytes: zipped.toString('base64') });
  });

  it("passes a service's own 503 on as it is, having asked the service once", async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/usual-requests' });
    expect([response.statusCode, response.headers['retry-after'], response.json()]).toEqual([
      503,
      '5',
      { error: 'The trips service is not available right now. Please try again shortly.' },
    ]);
    // Asking again would only add load to a service that is struggling already.
    expect(unavailableAsked).toBe(1);
  });

  it('passes on the body of a client that asks first (Expect: 100-continue), the expectation being answered by the gateway', async () => {
    const { port } = gateway.server.address() as { port: number };
    const body = JSON.stringify({ route: 'JFK' });
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = request(
        { host: '127.0.0.1', port, path: '/api/trips', method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' } },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      outgoing.on('continue', () => outgoing.end(body));
      outgoing.on('error', reject);
    });
    expect([answer.status, JSON.parse(answer.text)]).toEqual([200, { encoding: null, bytes: Buffer.from(body).toString('base64') }]);
  });

  it('streams an answer too large to hold whole, complete', async () => {
    const { port } = gateway.server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/api/stats`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(big);
  });
});

describe('gateway: answers a service already compressed', () => {
  it('passes a gzip answer (the Master Calendar) through byte for byte, with its ETag, and passes its 304 on', async () => {
    const { gzipSync, gunzipSync } = await import('node:zlib');
    // Larger than the gateway reads whole even gzipped (a real calendar is ~1 MB so): streamed through.
    const { randomUUID } = await import('node:crypto');
    const body = JSON.stringify(Array.from({ length: 12_000 }, () => ({ trip: { id: randomUUID() }, pilot: { id: randomUUID() } })));
    const zipped = gzipSync(body);
    expect(zipped.length).toBeGreaterThan(WHOLE_BODY_MAX);
    const upstream = Fastify();
    const seen: (string | undefined)[] = [];
    upstream.get('/api/master-calendar/:rank/:fleet', async (request, reply) => {
      seen.push(request.headers['accept-encoding']);
      reply.header('etag', '"v1"').type('application/json; charset=utf-8');
      if (request.headers['if-none-match'] === '"v1"') return reply.status(304).send();
      return reply.header('content-encoding', 'gzip').send(zipped);
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const port = (upstream.server.address() as { port: number }).port;
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', TRIPS_URL: `http://127.0.0.1:${port}` }))).app;
    try {
      const response = await gateway.inject({ method: 'GET', url: '/api/master-calendar/CP/A350', headers: { 'accept-encoding': 'gzip' } });
      expect(seen).toEqual(['gzip']);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers.etag).toBe('"v1"');
      expect(response.rawPayload.equals(zipped)).toBe(true);
      expect(gunzipSync(response.rawPayload).toString()).toBe(body);
      const again = await gateway.inject({ method: 'GET', url: '/api/master-calendar/CP/A350', headers: { 'accept-encoding': 'gzip', 'if-none-match': '"v1"' } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});

describe('gateway: a pilot’s calendar feed', () => {
  it('is gzipped for a calendar app that accepts gzip, with its ETag, sent plain to one that does not, and its 304 passes on', async () => {
    const event = (n: number) => `BEGIN:VEVENT\r\nUID:trip-${n}@crewswap\r\nSUMMARY:Offered · VS025/VS026 JFK-BOS\r\nEND:VEVENT\r\n`;
    const body = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${Array.from({ length: 60 }, (_, n) => event(n)).join('')}END:VCALENDAR\r\n`;
    const upstream = Fastify();
    upstream.get('/api/calendar/:file', async (request, reply) => {
      reply.header('etag', '"feed-1"').header('cache-control', 'private, no-cache').type('text/calendar; charset=utf-8');
      if (request.headers['if-none-match'] === '"feed-1"') return reply.status(304).send();
      return body;
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const port = (upstream.server.address() as { port: number }).port;
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', TRIPS_URL: `http://127.0.0.1:${port}` }))).app;
    const url = '/api/calendar/AAAAAAAAAAAAAAAAAAAAAA.ics';
    try {
      const zipped = await gateway.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(zipped.headers.etag).toBe('"feed-1"');
      expect(zipped.headers.vary).toContain('accept-encoding');
      expect(zipped.rawPayload.length).toBeLessThan(Buffer.byteLength(body) / 4);
      expect(gunzipSync(zipped.rawPayload).toString()).toBe(body);

      const plain = await gateway.inject({ method: 'GET', url });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(body);

      const again = await gateway.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip', 'if-none-match': '"feed-1"' } });
      expect(again.statusCode).toBe(304);
      expect(again.headers['content-encoding']).toBeUndefined();
      expect(again.rawPayload.length).toBe(0);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});

describe('gateway: the service worker and the manifest', () => {
  it('serves /sw.js as JavaScript and the manifest as a web app manifest, both no-cache, while hashed assets stay immutable', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'crewswap-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>CrewSwap</title>');
    writeFileSync(join(dist, 'sw.js'), "self.addEventListener('push', () => undefined);");
    writeFileSync(join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'CrewSwap', start_url: '/' }));
    writeFileSync(join(dist, 'app-1a2b3c.js'), 'console.log(1)');
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', WEB_DIST: dist }))).app;
    try {
      const worker = await gateway.inject({ method: 'GET', url: '/sw.js' });
      expect(worker.statusCode).toBe(200);
      expect(worker.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(worker.headers['cache-control']).toBe('no-cache');
      expect(worker.body).toContain("addEventListener('push'");
      const manifest = await gateway.inject({ method: 'GET', url: '/manifest.webmanifest' });
      expect(manifest.statusCode).toBe(200);
      expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
      expect(manifest.headers['cache-control']).toBe('no-cache');
      expect(manifest.json()).toEqual({ name: 'CrewSwap', start_url: '/' });
      expect((await gateway.inject({ method: 'GET', url: '/app-1a2b3c.js' })).headers['cache-control']).toContain('immutable');
    } finally {
      await gateway.close();
    }
  });

  it('answers 404 for /sw.js when the built app has none, not the app page', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'crewswap-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>CrewSwap</title>');
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', WEB_DIST: dist }))).app;
    try {
      const worker = await gateway.inject({ method: 'GET', url: '/sw.js' });
      expect(worker.statusCode).toBe(404);
      expect(worker.json()).toEqual({ error: 'No such path: GET /sw.js' });
    } finally {
      await gateway.close();
    }
  });
});

describe('gateway: a shared roster', () => {
  it('a roster shared before the service worker runs is sent on to the share page, not refused', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'crewswap-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>CrewSwap</title>');
    const gateway = (await createApp(configSchema.parse({ LOG_LEVEL: 'silent', WEB_DIST: dist }))).app;
    try {
      const boundary = 'crewswap-boundary';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="roster"; filename="roster.ics"\r\nContent-Type: text/calendar\r\n\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n--${boundary}--\r\n`;
      const response = await gateway.inject({
        method: 'POST',
        url: '/share-roster',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
      expect([response.statusCode, response.headers.location]).toEqual([303, '/share-roster']);
      const page = await gateway.inject({ method: 'GET', url: '/share-roster' });
      expect([page.statusCode, page.headers['cache-control']]).toEqual([200, 'no-cache']);
    } finally {
      await gateway.close();
    }
  });
});

describe('client addresses behind a proxy (TRUST_PROXY)', () => {
  let upstream: FastifyInstance;
  let upstreamUrl: string;
  const ingress = '10.0.3.4';

  beforeAll(async () => {
    upstream = Fastify();
    upstream.all('/api/*', async (request) => ({ forwardedFor: request.headers['x-forwarded-for'] }));
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await upstream.close();
  });

  async function gatewayTrusting(trust: string | undefined): Promise<FastifyInstance> {
    const config = configSchema.parse({ LOG_LEVEL: 'silent', AUTH_URL: upstreamUrl, AUTH_RATE_LIMIT_PER_MINUTE: '3', ...(trust === undefined ? {} : { TRUST_PROXY: trust }) });
    return (await createApp(config)).app;
  }
  const login = (gateway: FastifyInstance, from: string, forwardedFor?: string) =>
    gateway.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: from,
      headers: { origin: ORIGIN, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      payload: {},
    });

  it.each([['10.0.0.0/8'], ['1']])('gives two pilots behind a trusted ingress (TRUST_PROXY=%s) separate rate-limit buckets', async (trust) => {
    const gateway = await gatewayTrusting(trust);
    try {
      const first: number[] = [];
      for (let i = 0; i < 4; i += 1) first.push((await login(gateway, ingress, '203.0.113.10')).statusCode);
      expect(first).toEqual([200, 200, 200, 429]);
      const other = await login(gateway, ingress, '203.0.113.20');
      expect(other.statusCode).toBe(200);
      // The service is told the pilot's address, not the ingress's.
      expect(other.json()).toEqual({ forwardedFor: '203.0.113.20' });
    } finally {
      await gateway.close();
    }
  });

  it('ignores an X-Forwarded-For from a client it does not trust, and never passes it on', async () => {
    for (const trust of [undefined, '10.0.0.0/8']) {
      const gateway = await gatewayTrusting(trust);
      try {
        const statuses: number[] = [];
        // One client making up a new address for each try still has one bucket.
        for (let i = 0; i < 4; i += 1) statuses.push((await login(gateway, '198.51.100.7', `203.0.113.${i}`)).statusCode);
        expect([trust, statuses]).toEqual([trust, [200, 200, 200, 429]]);
        const fresh = await login(gateway, '198.51.100.8', '203.0.113.99');
        expect(fresh.json()).toEqual({ forwardedFor: '198.51.100.8' });
      } finally {
        await gateway.close();
      }
    }
  });

  it('trusts nobody by default, and refuses a TRUST_PROXY it cannot read', () => {
    expect(configSchema.parse({}).TRUST_PROXY).toBe(false);
    expect(configSchema.parse({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(configSchema.parse({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.1']);
    expect(configSchema.safeParse({ TRUST_PROXY: 'the ingress' }).success).toBe(false);
    expect(configSchema.safeParse({ TRUST_PROXY: '10.0.0.0/40' }).success).toBe(false);
  });
});
