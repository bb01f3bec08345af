import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { ROSTER_FETCH_MESSAGES, ROSTER_MESSAGES, SUBJECTS, type RosterSubscriptionFetched } from '@crewswap/proto';
import { createApp, type RosterIngestApp } from '../src/app';
import { FetchRefused, fetchRoster, rosterUrl } from '../src/fetch/fetch-roster';
import { readFixture } from './fixtures';
import { adminCookie, pilotCookie, registerPilot, startTestStack, testDns, type TestStack } from './helpers';

const ROSTER = readFixture('roster-c-lhr-b787-fo.ics_').toString('utf8');
const CHANGED = readFileSync(join(__dirname, 'fixtures/rosters/changes/roster-c-changed.ics_'), 'utf8');
const INTERVAL_MS = 60 * 60_000;
/** Past any pilot's next fetch: an interval and the most a pilot's spread adds. */
const PAST_NEXT_FETCH = INTERVAL_MS * 1.2 + 1000;

type SeenRequest = { path: string; headers: IncomingHttpHeaders; status?: number };

/**
 * A pilot's crew system, on loopback in the test process: each pilot's calendar at /roster/<name>,
 * with an ETag (or, for a file given one, only a Last-Modified), answering 304 to a conditional GET
 * that still matches; and the ways an address can go wrong.
 */
class RosterServer {
  readonly files = new Map<string, { text: string; status?: number; lastModified?: string }>();
  /** Every request, with the status it was answered (once the answer is sent). */
  readonly requests: SeenRequest[] = [];
  private server: Server;
  port = 0;
  /** A port nothing is allowed to reach: loopback, but not listed. */
  otherPort = 0;
  private other: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const path = request.url ?? '/';
      const seen: SeenRequest = { path, headers: request.headers };
      this.requests.push(seen);
      response.on('finish', () => (seen.status = response.statusCode));
      const name = path.split('/')[2] ?? '';
      if (path.startsWith('/roster/')) {
        const file = this.files.get(name);
        if (!file || file.status) return response.writeHead(file?.status ?? 404).end('Not found');
        if (file.lastModified) {
          // A crew system that dates its file and gives no ETag.
          const since = Date.parse(request.headers['if-modified-since'] ?? '');
          if (since >= Date.parse(file.lastModified)) return response.writeHead(304, { 'last-modified': file.lastModified }).end();
          return response.writeHead(200, { 'content-type': 'text/calendar', 'last-modified': file.lastModified }).end(file.text);
        }
        const etag = `"${Buffer.from(file.text).length}-${hash(file.text)}"`;
        if (request.headers['if-none-match'] === etag) return response.writeHead(304, { etag }).end();
        // A crew system that says nothing useful about the type: the content decides.
        return response.writeHead(200, { 'content-type': 'application/octet-stream', etag }).end(file.text);
      }
      if (path === '/to-loopback') return response.writeHead(302, { location: `http://127.0.0.1:${this.otherPort}/roster/any` }).end();
      if (path.startsWith('/hop/')) {
        const left = Number(path.split('/')[2]);
        return response.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/roster/hops' }).end();
      }
      if (path === '/big') {
        // 3 MB in 64 KB pieces, without a length: only counting while it streams can stop it.
        response.writeHead(200, { 'content-type': 'text/calendar' });
        const piece = Buffer.alloc(64 * 1024, 'X');
        let sent = 0;
        const write = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += piece.length;
            if (!response.write(piece)) return response.once('drain', write);
          }
          response.end();
        };
        response.on('error', () => undefined);
        return write();
      }
      if (path === '/slow') {
        const timer = setTimeout(() => response.writeHead(200).end(ROSTER), 3000);
        response.on('close', () => clearTimeout(timer));
        return;
      }
      if (path === '/page') return response.writeHead(200, { 'content-type': 'text/calendar' }).end('<!doctype html><html><body>Please sign in</body></html>');
      response.writeHead(404).end();
    });
    this.other = createServer((_request, response) => response.writeHead(200).end(ROSTER));
  }

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    this.other.listen(0, '127.0.0.1');
    await Promise.all([once(this.server, 'listening'), once(this.other, 'listening')]);
    this.port = (this.server.address() as AddressInfo).port;
    this.otherPort = (this.other.address() as AddressInfo).port;
  }

  url = (path: string) => `http://127.0.0.1:${this.port}${path}`;
  fetchesOf = (name: string) => this.requests.filter((request) => request.path === `/roster/${name}`);

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.other.closeAllConnections();
    await Promise.all([new Promise((resolve) => this.server.close(resolve)), new Promise((resolve) => this.other.close(resolve))]);
  }
}

const hash = (text: string) => [...text].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) | 0, 7).toString(16);

describe('roster address: fetched at once, then on its own', () => {
  let stack: TestStack;
  const server = new RosterServer();

  beforeAll(async () => {
    await server.start();
    stack = await startTestStack({
      config: {
        SMTP_INGEST_ENABLED: false,
        MAIL_WORKER_ENABLED: false,
        ROSTER_FETCH_ENABLED: true,
        ROSTER_FETCH_TICK_MS: 100,
        ROSTER_FETCH_TIMEOUT_MS: 1000,
        ROSTER_FETCH_ALLOWED_PRIVATE_HOSTS: [`127.0.0.1:${server.port}`],
      },
    });
  });
  afterAll(async () => {
    await stack.stop();
    await server.stop();
  });

  const save = (pilotId: string, url: string) => stack.roster.app.inject({ method: 'PUT', url: '/api/roster/subscription', payload: { url }, cookies: pilotCookie(pilotId) });
  const status = (pilotId: string) => stack.roster.app.inject({ method: 'GET', url: '/api/roster/subscription', cookies: pilotCookie(pilotId) });
  const refresh = (pilotId: string) => stack.roster.app.inject({ method: 'POST', url: '/api/roster/subscription/refresh', cookies: pilotCookie(pilotId) });
  const tripsOf = (pilotId: string) => stack.trips.repositories.trips.listByPilot(pilotId);
  const historyOf = async (pilotId: string) =>
    ((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history?source=subscription&limit=500', cookies: adminCookie() })).json().records as { pilotId: string; tripsChanged: number }[]).filter(
      (record) => record.pilotId === pilotId,
    );
  const outboxOf = async (subject: string, pilotId: string) =>
    ((await stack.roster.runtime.db('outbox').where({ subject }).orderBy('seq')) as { envelope: { data: Record<string, unknown> } }[])
      .map((row) => row.envelope.data)
      .filter((data) => data.pilotId === pilotId || data.to !== undefined);
  /** The scheduler's next look after the clock has passed every pilot's next fetch. */
  const nextScheduledFetch = () => stack.clock.advance(PAST_NEXT_FETCH);

  it('imports the roster at once like an upload, then applies a changed roster on a scheduled fetch: pilot told, offers withdrawn', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787', rank: 'FO' });
    server.files.set('changes', { text: ROSTER });
    const saved = await save(pilot.id, server.url('/roster/changes'));
    expect(saved.statusCode).toBe(200);
    const body = saved.json() as RosterSubscriptionFetched;
    expect(body).toMatchObject({ url: server.url('/roster/changes'), lastStatus: 'ok', lastFetchedAt: stack.clock.now().toISOString() });
    expect(body.result!.addedCount).toBe((await tripsOf(pilot.id)).length);
    expect(body.result!.addedCount).toBeGreaterThan(0);
    expect(await historyOf(pilot.id)).toHaveLength(1);

    const offered = (await tripsOf(pilot.id)).find((trip) => trip.flightNoStart === 'VS065')!;
    await stack.trips.repositories.trips.update(offered.id, { isSwappable: true, swapDescription: 'Any Caribbean' });

    server.files.set('changes', { text: CHANGED });
    nextScheduledFetch();
    await eventually(async () => (await historyOf(pilot.id)).length === 2, 10_000);
    expect((await historyOf(pilot.id))[0]).toMatchObject({ tripsChanged: 3 });
    expect((await tripsOf(pilot.id)).find((trip) => trip.id === offered.id)).toMatchObject({ isSwappable: false, startDate: '2026-12-10' });

    // Push and bell (reason roster_change), and the SSE that roster.roster.processed becomes.
    const pushes = await outboxOf(SUBJECTS.sendPush, pilot.id);
    expect(pushes).toEqual([expect.objectContaining({ kind: 'roster_change', reason: 'roster_change', title: 'Your roster changed: 1 added, 3 changed, 1 removed' })]);
    const processed = await outboxOf(SUBJECTS.rosterProcessed, pilot.id);
    expect(processed.at(-1)).toMatchObject({ source: 'subscription', processedCount: 1, changedCount: 3, removedCount: 1 });

    // Unchanged since: a conditional GET, answered 304, changes nothing.
    nextScheduledFetch();
    await eventually(async () => (await status(pilot.id)).json().lastStatus === 'not_modified', 10_000);
    expect(server.fetchesOf('changes').at(-1)!.headers['if-none-match']).toBeDefined();
    expect(await historyOf(pilot.id)).toHaveLength(2);
    expect(await outboxOf(SUBJECTS.sendPush, pilot.id)).toHaveLength(1);
  });

  it('fetches a roster served with Last-Modified and no ETag again with If-Modified-Since: a 304 imports nothing and keeps the trips', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787', rank: 'FO' });
    const lastModified = 'Tue, 01 Dec 2026 06:00:00 GMT';
    server.files.set('dated', { text: ROSTER, lastModified });
    expect((await save(pilot.id, server.url('/roster/dated'))).statusCode).toBe(200);
    expect(await stack.roster.repositories.subscriptions.find(pilot.id)).toMatchObject({ etag: null, last_modified: lastModified });
    const trips = await tripsOf(pilot.id);
    expect(trips.length).toBeGreaterThan(0);
    expect(server.fetchesOf('dated')).toEqual([expect.objectContaining({ status: 200 })]);
    expect(server.fetchesOf('dated')[0]!.headers['if-modified-since']).toBeUndefined();

    nextScheduledFetch();
    await eventually(async () => (await status(pilot.id)).json().lastStatus === 'not_modified', 10_000);
    const conditional = server.fetchesOf('dated').at(-1)!;
    expect(conditional.headers['if-modified-since']).toBe(lastModified);
    expect(conditional.headers['if-none-match']).toBeUndefined();
    expect(conditional.status).toBe(304);
    expect(server.fetchesOf('dated')).toHaveLength(2);
    expect(await historyOf(pilot.id)).toHaveLength(1);
    expect(await tripsOf(pilot.id)).toEqual(trips);
    expect(await outboxOf(SUBJECTS.sendPush, pilot.id)).toEqual([]);
    expect(await stack.roster.repositories.subscriptions.find(pilot.id)).toMatchObject({ last_status: 'not_modified', last_modified: lastModified, failures: 0 });
  });

  it.each([
    ['a loopback address that is not allowed', () => `http://127.0.0.1:${server.otherPort}/roster.ics`, ROSTER_FETCH_MESSAGES.privateAddress],
    ['a redirect to a loopback address', () => server.url('/to-loopback'), ROSTER_FETCH_MESSAGES.privateAddress],
    ['more than 3 redirects', () => server.url('/hop/3'), ROSTER_FETCH_MESSAGES.tooManyRedirects],
    ['a 3 MB answer', () => server.url('/big'), ROSTER_FETCH_MESSAGES.tooLarge],
    ['a slow answer', () => server.url('/slow'), ROSTER_FETCH_MESSAGES.timeout(1)],
    ['a page that is not a calendar', () => server.url('/page'), ROSTER_MESSAGES.NOT_A_CALENDAR],
    ['an address that is not found (404)', () => server.url('/roster/missing'), ROSTER_FETCH_MESSAGES.status(404)],
    ['not a web address', () => 'ftp://example.com/roster.ics', ROSTER_FETCH_MESSAGES.notAnAddress],
  ])('refuses %s with its sentence and stores nothing', async (_name, address, sentence) => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    const response = await save(pilot.id, address());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: sentence, message: sentence });
    expect(response.body).not.toContain('127.0.0.1');
    expect((await status(pilot.id)).statusCode).toBe(404);
    expect(await tripsOf(pilot.id)).toEqual([]);
    expect(await historyOf(pilot.id)).toEqual([]);
  });

  it('follows up to 3 redirects, each checked again', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    server.files.set('hops', { text: ROSTER });
    const response = await save(pilot.id, server.url('/hop/2'));
    expect(response.statusCode).toBe(200);
    expect((response.json() as RosterSubscriptionFetched).result!.addedCount).toBeGreaterThan(0);
  });

  it('keeps the trips when fetches fail; after 5 in a row the address is paused and the pilot told by mail and bell', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    server.files.set('failing', { text: ROSTER });
    expect((await save(pilot.id, server.url('/roster/failing'))).statusCode).toBe(200);
    const trips = await tripsOf(pilot.id);
    server.files.set('failing', { text: ROSTER, status: 404 });
    for (let failures = 1; failures <= 5; failures++) {
      nextScheduledFetch();
      await eventually(async () => (await stack.roster.repositories.subscriptions.find(pilot.id))?.failures === failures, 10_000);
    }
    expect((await status(pilot.id)).json()).toMatchObject({ lastStatus: 'paused', lastError: ROSTER_FETCH_MESSAGES.status(404), nextFetchAt: null });
    expect(await tripsOf(pilot.id)).toEqual(trips);
    expect(await outboxOf(SUBJECTS.sendPush, pilot.id)).toEqual([expect.objectContaining({ reason: 'roster_change', title: 'Your roster address stopped working' })]);
    const mails = (await outboxOf(SUBJECTS.sendMail, pilot.id)).filter((mail) => mail.to === pilot.email);
    expect(mails).toEqual([expect.objectContaining({ subject: 'CrewSwap: your roster address stopped working' })]);

    // Paused: no more fetches.
    const fetched = server.fetchesOf('failing').length;
    nextScheduledFetch();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.fetchesOf('failing')).toHaveLength(fetched);
  });

  it('fetches now at most once a minute: 429 with the wait', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    server.files.set('refresh', { text: ROSTER });
    expect((await save(pilot.id, server.url('/roster/refresh'))).statusCode).toBe(200);
    const first = await refresh(pilot.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ lastStatus: 'not_modified' });
    stack.clock.advance(20_000);
    const again = await refresh(pilot.id);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ message: ROSTER_FETCH_MESSAGES.tooSoon(40), retryAfterSeconds: 40 });
    stack.clock.advance(40_000);
    expect((await refresh(pilot.id)).statusCode).toBe(200);
  });

  it('stops fetching at once when the address is removed or the pilot deleted', async () => {
    const removing = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    const deleted = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    server.files.set('removed', { text: ROSTER });
    server.files.set('deleted', { text: ROSTER });
    expect((await save(removing.id, server.url('/roster/removed'))).statusCode).toBe(200);
    expect((await save(deleted.id, server.url('/roster/deleted'))).statusCode).toBe(200);

    expect((await stack.roster.app.inject({ method: 'DELETE', url: '/api/roster/subscription', cookies: pilotCookie(removing.id) })).statusCode).toBe(204);
    expect((await status(removing.id)).statusCode).toBe(404);
    const { db, outbox } = stack.trips.runtime;
    await db.transaction((trx) => outbox.write(trx, SUBJECTS.pilotDeleted, { pilotId: deleted.id, employeeId: deleted.employeeId }));
    await eventually(async () => (await stack.roster.repositories.subscriptions.find(deleted.id)) === undefined, 10_000);

    nextScheduledFetch();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.fetchesOf('removed')).toHaveLength(1);
    expect(server.fetchesOf('deleted')).toHaveLength(1);
  });

  it('answers 404 when the pilot has no roster address', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    expect((await status(pilot.id)).statusCode).toBe(404);
    expect((await refresh(pilot.id)).statusCode).toBe(404);
  });
});

describe('roster address: two replicas on one database', () => {
  let stack: TestStack;
  let second: RosterIngestApp;
  const server = new RosterServer();

  beforeAll(async () => {
    await server.start();
    const config = { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false, ROSTER_FETCH_ENABLED: true, ROSTER_FETCH_TICK_MS: 50, ROSTER_FETCH_ALLOWED_PRIVATE_HOSTS: [`127.0.0.1:${server.port}`] };
    stack = await startTestStack({ config });
    second = await createApp(stack.config, { clock: stack.clock, settings: { get: async () => '' }, keys: TEST_KEYS, dnsResolver: testDns() });
  });
  afterAll(async () => {
    await second.close();
    await stack.stop();
    await server.stop();
  });

  it('fetches each due address once, whichever replica claims it', async () => {
    const pilots = await Promise.all(Array.from({ length: 8 }, () => registerPilot(stack, { base: 'LHR', fleet: 'B787' })));
    for (const [index, pilot] of pilots.entries()) {
      server.files.set(`p${index}`, { text: ROSTER });
      const response = await stack.roster.app.inject({ method: 'PUT', url: '/api/roster/subscription', payload: { url: server.url(`/roster/p${index}`) }, cookies: pilotCookie(pilot.id) });
      expect(response.statusCode).toBe(200);
    }
    stack.clock.advance(PAST_NEXT_FETCH);
    await eventually(async () => pilots.every((_pilot, index) => server.fetchesOf(`p${index}`).length >= 2), 10_000);
    // Both replicas looked many times meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const index of pilots.keys()) expect(server.fetchesOf(`p${index}`)).toHaveLength(2);
  });
});

describe('the roster fetcher refuses before connecting', () => {
  const at = (...addresses: string[]) => ({ allowedHosts: [], timeoutMs: 1000, resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) });
  const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (error instanceof FetchRefused ? error.message : String(error)));

  it('reads webcal:// as https://', () => {
    expect(rosterUrl('webcal://crew.example-airline.test/roster.ics').toString()).toBe('https://crew.example-airline.test/roster.ics');
  });

  it.each([
    ['a name that also resolves to a private address', ['203.0.113.9', '10.0.0.5']],
    ['the metadata address', ['169.254.169.254']],
    ['a unique-local address', ['fd00:ec2::254']],
    ['an IPv6 link-local address', ['fe80::1']],
    ['an IPv4-mapped loopback', ['::ffff:127.0.0.1']],
    ['a 6to4 address (this one carries 127.0.0.1)', ['2002:7f00:1::1']],
    ['a 6to4 address among public ones', ['2001:4860:4860::8888', '2002:a9fe:a9fe::1']],
    ['a deprecated site-local address', ['fec0::1']],
    ['an IPv4-compatible address (this one carries the metadata address)', ['::a9fe:a9fe']],
    ['a Teredo address', ['2001:0:4136:e378:8000:63bf:3fff:fdd2']],
    ['a local-use NAT64 address', ['64:ff9b:1::a9fe:a9fe']],
    ['a site-local address at the end of its range', ['feff:ffff::1']],
  ])('refuses %s, without naming it', async (_name, addresses) => {
    const message = await refusal(fetchRoster('https://crew.example-airline.test/roster.ics', {}, at(...addresses)));
    expect(message).toBe(ROSTER_FETCH_MESSAGES.privateAddress);
    for (const address of addresses) expect(message).not.toContain(address);
  });

  it.each([['2002:7f00:1::1'], ['fec0::1']])('lets %s past the check when its host:port is listed', async (address) => {
    // Listed, it is connected to: whatever happens then (nothing answers there), it is not refused as private.
    const message = await refusal(fetchRoster('https://crew.example-airline.test/roster.ics', {}, { ...at(address), allowedHosts: [`[${address}]:443`], timeoutMs: 500 }));
    expect(message).not.toBe(ROSTER_FETCH_MESSAGES.privateAddress);
    expect([ROSTER_FETCH_MESSAGES.unreachable, ROSTER_FETCH_MESSAGES.timeout(1)]).toContain(message);
  });

  it('refuses plain http to a host that is not listed', async () => {
    expect(await refusal(fetchRoster('http://crew.example-airline.test/roster.ics', {}, at('203.0.113.9')))).toBe(ROSTER_FETCH_MESSAGES.httpsOnly);
  });
});
