/**
 * A property of the whole system, tried as an attacker would, through the gateway: whatever body
 * reaches any route of any service (nested thousands deep, too big, fields of the wrong type, not
 * an object at all; in another charset, compressed, form-encoded or in broken multipart framing;
 * the same create sent 20 times at once), the answer is never a 5xx. Every service runs in this process on one
 * database (a schema each, as in production) and one NATS prefix; the routes come from the
 * services themselves, so a route added later is fuzzed without touching this file.
 */
import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_COOKIE, deleteStreams, fixedClock, PILOT_COOKIE, type Runtime } from '@crewswap/kit';
import { createTestDatabase, eventually, signedElsewhere, startServices, testBaseConfig, uniqueName } from '@crewswap/kit-testing';
import * as proto from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { createApp as createGateway } from '../src/app';
import { configSchema as gatewayConfig } from '../src/config';
import { ownerOf } from '../src/route-table';

jest.setTimeout(120_000);

const ORIGIN = 'http://localhost:8080';
const ADMIN = { email: 'fuzz-admin@crewswap.test', password: 'fuzz-admin-1' };
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Bodies per route: two of each kind (nesting, size, wrong types, not an object). */
const ROUNDS = 8;

/** Small seeded generator, so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Every field name any contract in proto knows, so random bodies hit real fields with wrong values. */
const FIELD_NAMES = [
  ...new Set(
    Object.values(proto).flatMap((value) =>
      value && typeof value === 'object' && 'shape' in value && value.shape && typeof value.shape === 'object' ? Object.keys(value.shape) : [],
    ),
  ),
].sort();

const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'VS003',
  'JFK',
  '2026-11-10',
  '9999-12-31',
  '0000-01-01',
  'A350',
  randomUUID(),
  '\u0000',
  '\u202e💥',
  "'; DROP TABLE trips; --",
  {},
  [],
  [1, 'a', null],
  { $gt: '' },
  { __proto__: { admin: true } },
];

/** JSON text of lists and objects inside each other `depth` deep (built as text: stringify would overflow). */
function nested(depth: number): string {
  const open = Array.from({ length: depth }, (_, i) => (i % 2 ? '{"k":' : '[')).join('');
  const close = Array.from({ length: depth }, (_, i) => (i % 2 ? '}' : ']')).reverse().join('');
  return `${open}"x"${close}`;
}

/** One body (as JSON text) of the given kind: nesting, size, wrong types, or not an object at all. */
function body(next: () => number, kind: number): string {
  const field = () => FIELD_NAMES[Math.floor(next() * FIELD_NAMES.length)]!;
  switch (kind % 4) {
    case 0: {
      const depth = [3, 31, 33, 800, 5000][Math.floor(next() * 5)]!;
      return `{${JSON.stringify(field())}:${nested(depth)}}`;
    }
    case 1: {
      // The last is over the services' 1 MiB body limit: 413, never a 5xx or a stalled answer.
      const length = [0, 101, 5001, 300_000, 1_200_000][Math.floor(next() * 5)]!;
      return next() < 0.5 ? JSON.stringify({ [field()]: 'x'.repeat(length) }) : JSON.stringify({ [field()]: Array.from({ length: length / 10 }, () => 0) });
    }
    case 2:
      return JSON.stringify(Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 6) }, () => [field(), ODD_VALUES[Math.floor(next() * ODD_VALUES.length)]])));
    default:
      return ['[]', '"text"', '42', 'null', 'true', '{"unterminated": ', '{"a":1}{"b":2}', `${'['.repeat(100_000)}`][Math.floor(next() * 8)]!;
  }
}

describe('fuzzed bodies on every route of every service', () => {
  const prefix = uniqueName('fuzz');
  const clock = fixedClock('2026-11-01T12:00:00Z');
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const services: { name: string; app: FastifyInstance; runtime: Runtime; close(): Promise<void> }[] = [];
  let gateway: FastifyInstance;
  let cookies: Record<string, string>;
  const ids = { pilot: '', other: '', trip: '' };
  let otherEmail = '';

  beforeAll(async () => {
    database = await createTestDatabase();
    const base = { ...testBaseConfig(database.url, prefix), PORT: 0 };
    const started = await startServices(['admin', 'auth', 'trips', 'swaps', 'notifications', 'roster-ingest', 'links'], base, {
      env: {
        admin: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TESTING_BUTTON_ENABLED: 'true', TESTING_PASSWORD: 'fuzz-pass' },
        auth: { SETTINGS_CACHE_MS: '0' },
      },
      options: { clock },
    });
    services.push(...started);
    const urls: Record<string, string> = {};
    for (const service of services) {
      await service.app.listen({ port: 0, host: '127.0.0.1' });
      urls[`${service.name.toUpperCase().replace('-', '_')}_URL`] = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
    }
    gateway = (
      await createGateway(
        gatewayConfig.parse({ LOG_LEVEL: 'silent', ...urls, WEB_DIST: mkdtempSync(join(tmpdir(), 'crewswap-dist-')), AUTH_RATE_LIMIT_PER_MINUTE: '1000000' }),
      )
    ).app;

    const call = (method: string, url: string, payload?: unknown, extra: Record<string, string> = {}) =>
      gateway.inject({ method: method as 'POST', url, headers: { origin: ORIGIN }, cookies: extra, ...(payload === undefined ? {} : { payload: payload as object }) });
    const adminLogin = await call('POST', '/api/admin/login', ADMIN);
    const adminCookie = adminLogin.cookies.find((c) => c.name === ADMIN_COOKIE)!.value;
    await call('PUT', '/api/admin/settings/email_verification_enabled', { value: 'false' }, { [ADMIN_COOKIE]: adminCookie });
    const register = async (employeeId: string) => {
      const response = await call('POST', '/api/auth/register', {
        firstName: 'fuzz',
        lastName: 'pilot',
        employeeId,
        phone: '+447700900123',
        emailPrefix: `fuzz${employeeId}`,
        rank: 'CP',
        fleet: 'A350',
        base: 'LHR',
        apic: true,
        ltc: false,
        usualReq: true,
        password: 'secret1',
        confirmPassword: 'secret1',
      });
      if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
      return response.json().pilot as { id: string; email: string };
    };
    const me = await register('100001');
    ids.pilot = me.id;
    const other = await register('100002');
    ids.other = other.id;
    otherEmail = other.email;
    const login = await call('POST', '/api/auth/login', { email: me.email, password: 'secret1' });
    cookies = { [ADMIN_COOKIE]: adminCookie, [PILOT_COOKIE]: login.cookies.find((c) => c.name === PILOT_COOKIE)!.value };
    const trip = await eventually(async () => {
      const response = await call('POST', '/api/trips', { flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK', startDate: '2026-11-10', endDate: '2026-11-12' }, cookies);
      return response.statusCode === 201 ? (response.json() as { id: string }) : undefined;
    }, 15_000);
    ids.trip = trip.id;
  });

  afterAll(async () => {
    await gateway?.close();
    if (services[0]) await deleteStreams(services[0].runtime.bus);
    for (const service of services.reverse()) await service.close();
    await database?.drop();
  });

  /** A path for a route: the fuzzing pilot's own ids where a route takes them, so bodies reach the domain. */
  function pathOf(method: string, url: string): string {
    return url.replace(/:(\w+)/g, (_match, name: string) => {
      // Never delete what the rest of the run stands on.
      if (method === 'DELETE') return randomUUID();
      if (name === 'key') return 'swap_search_days';
      if (name === 'employeeId') return '999999';
      if (url.startsWith('/api/trips/')) return ids.trip;
      if (url.startsWith('/api/pilots/')) return ids.pilot;
      if (url.startsWith('/api/admin/pilots/')) return ids.other;
      return randomUUID();
    });
  }

  it('the API reference lists exactly the routes the running services register', () => {
    const methods = new Set(['GET', ...MUTATING]);
    const registered = services.flatMap((service) =>
      service.app.routeList.filter((route) => methods.has(route.method) && route.url.startsWith('/api/')).map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`),
    );
    // realtime (its one stream) is not started here: api-docs.test.ts reads its route from its file.
    const started = new Set<string>(services.map((service) => service.name));
    const catalogued = proto.API_ROUTES.filter((route) => started.has(ownerOf(route.path) ?? ''));
    expect([...new Set(registered)].sort()).toEqual(catalogued.map(proto.routeKey).sort());
  });

  it('no body on any route is answered with a 5xx', async () => {
    const routes = services.flatMap((service) =>
      service.app.routeList.filter((route) => MUTATING.has(route.method) && route.url.startsWith('/api/')).map((route) => ({ service: service.name, ...route })),
    );
    expect(routes.length).toBeGreaterThan(20);
    const next = random(20261101);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      // Logging out would end the sessions the other routes are fuzzed with, and a shutdown or
      // restart would stop the system under test: those are fuzzed without a session (refused
      // by their guard after the body is read).
      const withCookies = /(logout|emergency-shutdown|resume-operations|restart-server)$/.test(route.url) ? {} : cookies;
      for (let round = 0; round < ROUNDS; round += 1) {
        const payload = body(next, round);
        const response = await gateway.inject({
          method: route.method as 'POST',
          url: pathOf(route.method, route.url),
          headers: { origin: ORIGIN, 'content-type': 'application/json' },
          cookies: withCookies,
          payload,
        });
        sent += 1;
        if (response.statusCode >= 500) failures.push(`${route.method} ${route.url} (${route.service}) ${response.statusCode} ${response.body.slice(0, 200)} <- ${payload.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBe(routes.length * ROUNDS);
  });
  /** The mutating routes fuzzed, with the cookies each is sent with (see the first test). */
  function mutatingRoutes() {
    return services.flatMap((service) =>
      service.app.routeList
        .filter((route) => MUTATING.has(route.method) && route.url.startsWith('/api/'))
        .map((route) => ({
          service: service.name,
          ...route,
          cookies: /(logout|emergency-shutdown|resume-operations|restart-server)$/.test(route.url) ? {} : cookies,
        })),
    );
  }

  it('no content type, encoding or multipart framing on any route is answered with a 5xx', async () => {
    const json = JSON.stringify({ email: 'x@fly.virgin.com', value: '5', iataCode: 'JFK' });
    const boundary = '----crewswap-fuzz';
    const part = (headers: string, content: string) => `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
    const variants: { name: string; headers: Record<string, string>; payload: string | Buffer }[] = [
      { name: 'utf-16 JSON', headers: { 'content-type': 'application/json; charset=utf-16' }, payload: Buffer.from(json, 'utf16le') },
      { name: 'latin-1 JSON', headers: { 'content-type': 'application/json; charset=ISO-8859-1' }, payload: Buffer.from(json, 'latin1') },
      { name: 'empty charset', headers: { 'content-type': 'application/json; charset=' }, payload: json },
      { name: 'gzip JSON', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: gzipSync(json) },
      { name: 'br JSON', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, payload: brotliCompressSync(json) },
      { name: 'deflate JSON', headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, payload: deflateSync(json) },
      { name: 'gzip that is not', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: json },
      { name: 'unknown encoding', headers: { 'content-type': 'application/json', 'content-encoding': 'x-crewswap, gzip' }, payload: json },
      { name: 'text', headers: { 'content-type': 'text/plain' }, payload: json },
      { name: 'form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=x%40fly.virgin.com&value=5' },
      { name: 'octet-stream', headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from([0, 255, 1, 254]) },
      { name: 'no type', headers: {}, payload: json },
      { name: 'two types', headers: { 'content-type': 'application/json, text/plain' }, payload: json },
      { name: 'odd parameters', headers: { 'content-type': 'application/json; boundary=x; charset="utf-8"; q=0' }, payload: json },
      {
        name: 'multipart',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `${part('Content-Disposition: form-data; name="value"', '5')}${part('Content-Disposition: form-data; name="file"; filename="roster.ics"\r\nContent-Type: text/calendar', 'BEGIN:VCALENDAR\r\nEND:VCALENDAR')}--${boundary}--\r\n`,
      },
      { name: 'multipart without boundary', headers: { 'content-type': 'multipart/form-data' }, payload: part('Content-Disposition: form-data; name="a"', '1') },
      { name: 'multipart never closed', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: part('Content-Disposition: form-data; name="file"; filename="a.ics"', 'BEGIN:VCALENDAR') },
      { name: 'multipart headers never ended', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.ics"` },
      { name: 'multipart wrong boundary', headers: { 'content-type': 'multipart/form-data; boundary=other' }, payload: `${part('Content-Disposition: form-data; name="a"', '1')}--${boundary}--\r\n` },
      {
        name: 'multipart many parts',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `${Array.from({ length: 50 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"; filename="f${i}.ics"`, 'x')).join('')}--${boundary}--\r\n`,
      },
      { name: 'multipart huge header', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: `${part(`Content-Disposition: form-data; name="${'n'.repeat(100_000)}"`, '1')}--${boundary}--\r\n` },
      { name: 'gzip multipart', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-encoding': 'gzip' }, payload: gzipSync(`${part('Content-Disposition: form-data; name="a"', '1')}--${boundary}--\r\n`) },
    ];
    const routes = mutatingRoutes();
    const failures: string[] = [];
    for (const route of routes) {
      for (const variant of variants) {
        const response = await gateway.inject({
          method: route.method as 'POST',
          url: pathOf(route.method, route.url),
          headers: { origin: ORIGIN, ...variant.headers },
          cookies: route.cookies,
          payload: variant.payload,
        });
        if (response.statusCode >= 500) failures.push(`${route.method} ${route.url} (${route.service}) ${variant.name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    // What is not UTF-8 JSON (or the upload's multipart) is refused as such, not misread.
    const refused = async (headers: Record<string, string>, payload: string | Buffer) =>
      (await gateway.inject({ method: 'POST', url: '/api/trips', headers: { origin: ORIGIN, ...headers }, cookies, payload })).statusCode;
    expect(await refused({ 'content-type': 'application/json; charset=utf-16' }, Buffer.from(json, 'utf16le'))).toBe(415);
    expect(await refused({ 'content-type': 'application/json', 'content-encoding': 'br' }, brotliCompressSync(json))).toBe(415);
  });

  it('the same create sent 20 times at once on every route is never answered with a 5xx, and one new admin email makes one admin', async () => {
    const key = Buffer.alloc(65, 4).toString('base64url');
    const date = '2026-12-20';
    // A body each create route takes, so the requests race past validation into the domain; the
    // rest get `{}` and are refused alike.
    const creates: Record<string, unknown> = {
      'POST /api/admin/admins': { email: 'race.admin@crewswap.test', name: 'Race Admin', isMasterAdmin: false, permissions: ['manage_pilots'] },
      'POST /api/admin/cleanup/config': { frequency: 'daily', retentionDays: 7 },
      'POST /api/admin/cleanup/run': { retentionDays: 7 },
      'POST /api/admin/login': ADMIN,
      'POST /api/admin/iata-codes': { iataCode: 'ZZA' },
      'POST /api/iata-codes': { iataCode: 'ZZB' },
      'POST /api/admin/excluded-airports': { iataCode: 'ZZC' },
      'POST /api/auth/register': {
        firstName: 'race',
        lastName: 'pilot',
        employeeId: '100003',
        phone: '+447700900123',
        emailPrefix: 'race100003',
        rank: 'FO',
        fleet: 'A350',
        base: 'LHR',
        apic: false,
        ltc: false,
        usualReq: true,
        password: 'secret1',
        confirmPassword: 'secret1',
      },
      'POST /api/auth/login': { email: otherEmail, password: 'secret1' },
      'POST /api/auth/test-login': { email: otherEmail, password: 'fuzz-pass' },
      'POST /api/auth/resend-verification': { email: otherEmail },
      'POST /api/auth/forgot-password': { email: otherEmail },
      'POST /api/restore-pilot': { employeeId: '100009', updatedData: { password: 'secret1' } },
      'POST /api/trips': { flightNoStart: 'VS007', flightNoEnd: 'VS008', route: 'JFK', startDate: date, endDate: date },
      'POST /api/crew-links': { title: 'Race Diner', category: 'restaurant', description: 'Crew discount.', isActive: true },
      'POST /api/notifications/subscribe': { endpoint: 'https://fcm.googleapis.com/fcm/send/race', keys: { p256dh: key, auth: Buffer.alloc(16, 7).toString('base64url') } },
      'POST /api/trips/:id/whatsapp-group': {},
    };
    const routes = mutatingRoutes().filter((route) => route.method === 'POST');
    for (const name of Object.keys(creates)) expect(routes.map((route) => `${route.method} ${route.url}`)).toContain(name);
    const failures: string[] = [];
    const answers = new Map<string, { status: number; body: string }[]>();
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const payload = JSON.stringify(creates[name] ?? {});
      const url = pathOf(route.method, route.url);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          gateway.inject({ method: 'POST', url, headers: { origin: ORIGIN, 'content-type': 'application/json' }, cookies: route.cookies, payload }),
        ),
      );
      answers.set(name, responses.map((response) => ({ status: response.statusCode, body: response.body })));
      for (const response of responses) {
        if (response.statusCode >= 500) failures.push(`${name} (${route.service}) ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    const admins = answers.get('POST /api/admin/admins')!;
    expect(admins.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(new Set(admins.filter((answer) => answer.status !== 201).map((answer) => `${answer.status} ${JSON.parse(answer.body).error}`))).toEqual(
      new Set(['409 An admin with this email already exists']),
    );
    const registrations = answers.get('POST /api/auth/register')!;
    expect(registrations.filter((answer) => answer.status === 201)).toHaveLength(1);
  });
  it('a token signed with the real key for a session never issued gets what no session gets, on every route of every service', async () => {
    const forged = {
      [PILOT_COOKIE]: await signedElsewhere({ sessionId: randomUUID(), pilotId: ids.pilot }),
      [ADMIN_COOKIE]: await signedElsewhere({ sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin: true }),
    };
    const routes = services.flatMap((service) =>
      service.app.routeList.filter((route) => route.method === 'GET' && route.url.startsWith('/api/') && route.url !== '/api/sse/events').map((route) => ({ service: service.name, ...route })),
    );
    expect(routes.length).toBeGreaterThan(20);
    const differences: string[] = [];
    for (const route of routes) {
      const url = pathOf(route.method, route.url);
      const anonymous = await gateway.inject({ method: 'GET', url });
      const withForged = await gateway.inject({ method: 'GET', url, cookies: forged });
      if (withForged.statusCode !== anonymous.statusCode) differences.push(`${route.url} (${route.service}) ${withForged.statusCode}, without a session ${anonymous.statusCode}`);
    }
    expect(differences).toEqual([]);
    // The same routes do serve a session that was issued.
    expect((await gateway.inject({ method: 'GET', url: '/api/trips', cookies })).statusCode).toBe(200);
  });
});
