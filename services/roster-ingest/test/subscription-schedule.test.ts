/**
 * Issue 56, when roster addresses are fetched: every ROSTER_FETCH_INTERVAL_MINUTES (60 unless
 * set), spread so that pilots are not all fetched in the same minute; and a replica that claimed a
 * due address and died mid-fetch leaves it due again once its claim runs out, while nobody else
 * fetches it before then.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { loadConfig } from '@crewswap/kit';
import { createApp, type RosterIngestApp } from '../src/app';
import { configSchema } from '../src/config';
import { nextFetchAt } from '../src/domain/roster-subscription';
import { readFixture } from './fixtures';
import { adminCookie, pilotCookie, registerPilot, startTestStack, testDns, type TestStack } from './helpers';

const ROSTER = readFixture('roster-c-lhr-b787-fo.ics_').toString('utf8');
const CHANGED = readFileSync(join(__dirname, 'fixtures/rosters/changes/roster-c-changed.ics_'), 'utf8');
const MINUTE = 60_000;
const INTERVAL_MS = 60 * MINUTE;
/** Past any pilot's next fetch: an interval and the most a pilot's spread adds. */
const PAST_NEXT_FETCH = INTERVAL_MS * 1.2 + 1000;
/** How long a replica's claim on a due address lasts (CLAIM_MS in src/domain/roster-subscription.ts; issue 56's audit: 5 minutes). */
const CLAIM_MS = 5 * MINUTE;

describe('roster address: how often it is fetched', () => {
  it('is fetched every 60 minutes when ROSTER_FETCH_INTERVAL_MINUTES is not set, and as often as it says when it is', () => {
    // As main.ts reads it (runService -> loadConfig(configSchema)), from an environment without it.
    expect(loadConfig(configSchema, {}).ROSTER_FETCH_INTERVAL_MINUTES).toBe(60);
    expect(loadConfig(configSchema, { ROSTER_FETCH_INTERVAL_MINUTES: '15' }).ROSTER_FETCH_INTERVAL_MINUTES).toBe(15);
  });

  it('spreads pilots over the 12 minutes after the interval: every next fetch in [now+60 min, now+72 min), not all in the same minute', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    const minutes = new Set<number>();
    for (let index = 0; index < 200; index++) {
      const pilotId = randomUUID();
      const at = nextFetchAt(pilotId, now, INTERVAL_MS).getTime();
      expect(at).toBeGreaterThanOrEqual(now.getTime() + 60 * MINUTE);
      expect(at).toBeLessThan(now.getTime() + 72 * MINUTE);
      minutes.add(Math.floor((at - now.getTime()) / MINUTE));
      // A pilot keeps their place in the spread: saved at the same minute, fetched at the same minute.
      expect(nextFetchAt(pilotId, now, INTERVAL_MS)).toEqual(new Date(at));
    }
    expect(minutes.size).toBeGreaterThanOrEqual(10);
  });
});

/** A pilot's crew system on loopback: the calendar at /roster/<name>; while `stalled`, a request is held unanswered. */
class StallingRosterServer {
  readonly files = new Map<string, string>();
  readonly requests: string[] = [];
  stalled = false;
  /** Holds the next request for this path, then answers it as any other. */
  holdNext: string | undefined;
  private held: ServerResponse[] = [];
  private server = createServer((request, response) => {
    const path = request.url ?? '/';
    this.requests.push(path);
    if (this.stalled || this.holdNext === path) {
      this.holdNext = undefined;
      this.held.push(response);
      return;
    }
    const text = this.files.get(path.split('/')[2] ?? '');
    if (!path.startsWith('/roster/') || text === undefined) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/calendar' }).end(text);
  });
  port = 0;

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  url = (path: string) => `http://127.0.0.1:${this.port}${path}`;
  fetchesOf = (name: string) => this.requests.filter((path) => path === `/roster/${name}`).length;

  /** Answers every held request with what is served now. */
  releaseHeld(): void {
    this.stalled = false;
    for (const response of this.held.splice(0)) response.writeHead(200, { 'content-type': 'text/calendar' }).end(this.files.get((response.req.url ?? '').split('/')[2] ?? ''));
  }

  /** Cuts every held request (its fetcher sees the connection go). */
  cutHeld(): void {
    for (const response of this.held.splice(0)) response.destroy();
  }

  async stop(): Promise<void> {
    this.cutHeld();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('roster address: a replica that dies mid-fetch', () => {
  let stack: TestStack;
  /** The replica that claims the address and dies with its fetch under way. */
  let dying: RosterIngestApp;
  const server = new StallingRosterServer();

  beforeAll(async () => {
    await server.start();
    // No replica looks on its own: the test says when each one looks (fetchDue, what the periodic task runs).
    stack = await startTestStack({
      config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false, ROSTER_FETCH_ENABLED: false, ROSTER_FETCH_ALLOWED_PRIVATE_HOSTS: [`127.0.0.1:${server.port}`] },
    });
    dying = await createApp(stack.config, { clock: stack.clock, settings: { get: async () => '' }, keys: TEST_KEYS, dnsResolver: testDns() });
  });
  afterAll(async () => {
    await dying?.close().catch(() => undefined);
    await stack?.stop();
    await server.stop();
  });

  const historyOf = async (pilotId: string) =>
    ((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history?source=subscription&limit=500', cookies: adminCookie() })).json().records as { pilotId: string }[]).filter(
      (record) => record.pilotId === pilotId,
    );
  const rowOf = (pilotId: string) => stack.roster.repositories.subscriptions.find(pilotId);
  /** The surviving replica's look for due addresses (and the same claim call in the database). */
  const survivorLooks = () => stack.roster.useCases.subscriptions.fetchDue();

  it('leaves the address due again once the claim runs out, then another replica claims and fetches it; before then nobody fetches it', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787', rank: 'FO' });
    server.files.set('claimed', ROSTER);
    const saved = await stack.roster.app.inject({ method: 'PUT', url: '/api/roster/subscription', payload: { url: server.url('/roster/claimed') }, cookies: pilotCookie(pilot.id) });
    expect(saved.statusCode).toBe(200);
    expect(server.fetchesOf('claimed')).toBe(1);
    // The wiring of ROSTER_FETCH_INTERVAL_MINUTES (60): the next fetch within the interval and its spread.
    const savedAt = stack.clock.now().getTime();
    const next = Date.parse((await rowOf(pilot.id))!.next_fetch_at!.toISOString());
    expect(next).toBeGreaterThanOrEqual(savedAt + 60 * MINUTE);
    expect(next).toBeLessThan(savedAt + 72 * MINUTE);

    // Due. The dying replica claims it and starts fetching; its fetch is held by the crew system.
    stack.clock.advance(PAST_NEXT_FETCH);
    server.stalled = true;
    const claimedAt = stack.clock.now().getTime();
    const dyingLook = dying.useCases.subscriptions.fetchDue();
    await eventually(async () => server.fetchesOf('claimed') === 2, 10_000);
    expect((await rowOf(pilot.id))!.claimed_until!.getTime()).toBe(claimedAt + CLAIM_MS);

    // It dies mid-fetch: its database goes with it, so it records nothing and lets go of nothing.
    await dying.close();
    server.cutHeld();
    await dyingLook.catch(() => undefined);
    server.stalled = false;
    const abandoned = (await rowOf(pilot.id))!;
    expect(abandoned).toMatchObject({ last_status: 'ok', failures: 0 });
    expect(abandoned.claimed_until!.getTime()).toBe(claimedAt + CLAIM_MS);
    server.files.set('claimed', CHANGED);

    // Before the claim runs out the address is not fetched again, by fetchDue or by the claim call itself.
    expect(await survivorLooks()).toBe(0);
    stack.clock.advance(CLAIM_MS - 1000);
    expect(await survivorLooks()).toBe(0);
    const now = stack.clock.now();
    expect(await stack.roster.repositories.subscriptions.claimDue(now, new Date(now.getTime() + CLAIM_MS), 20)).toEqual([]);
    expect(server.fetchesOf('claimed')).toBe(2);
    expect(await historyOf(pilot.id)).toHaveLength(1);

    // Past the claim (judged by the service's clock): due again; the surviving replica claims, fetches and imports it.
    stack.clock.advance(2000);
    expect(await survivorLooks()).toBe(1);
    expect(server.fetchesOf('claimed')).toBe(3);
    expect(await historyOf(pilot.id)).toHaveLength(2);
    const fetched = (await rowOf(pilot.id))!;
    expect(fetched).toMatchObject({ last_status: 'ok', failures: 0, claimed_until: null });
    expect(fetched.last_fetched_at!.getTime()).toBe(stack.clock.now().getTime());
    expect(fetched.next_fetch_at!.getTime()).toBeGreaterThanOrEqual(stack.clock.now().getTime() + INTERVAL_MS);

    // Fetched once: another look finds nothing due.
    expect(await survivorLooks()).toBe(0);
    expect(server.fetchesOf('claimed')).toBe(3);
  });

  it('a replica whose fetch outlived its claim neither imports nor records over the replica that took the address over', async () => {
    const slow = await createApp(stack.config, { clock: stack.clock, settings: { get: async () => '' }, keys: TEST_KEYS, dnsResolver: testDns() });
    try {
      const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787', rank: 'FO' });
      server.files.set('outlived', ROSTER);
      const saved = await stack.roster.app.inject({ method: 'PUT', url: '/api/roster/subscription', payload: { url: server.url('/roster/outlived') }, cookies: pilotCookie(pilot.id) });
      expect(saved.statusCode).toBe(200);

      // The slow replica claims the due address; the crew system holds its fetch past the claim.
      stack.clock.advance(PAST_NEXT_FETCH);
      server.holdNext = '/roster/outlived';
      const slowLook = slow.useCases.subscriptions.fetchDue();
      await eventually(async () => server.fetchesOf('outlived') === 2, 10_000);
      stack.clock.advance(CLAIM_MS + 1000);

      // Another replica takes the address over and imports the changed roster.
      server.files.set('outlived', CHANGED);
      // (The first test's address is due again by now too.)
      expect(await survivorLooks()).toBeGreaterThanOrEqual(1);
      expect(server.fetchesOf('outlived')).toBe(3);
      const trips = () => stack.trips.repositories.trips.listByPilot(pilot.id);
      const imported = await trips();
      const recorded = (await rowOf(pilot.id))!;
      expect(await historyOf(pilot.id)).toHaveLength(2);

      // The slow fetch ends at last, with the old roster: nothing of it is imported or recorded.
      server.files.set('outlived', ROSTER);
      server.releaseHeld();
      await slowLook;
      expect(await trips()).toEqual(imported);
      expect(await historyOf(pilot.id)).toHaveLength(2);
      expect(await rowOf(pilot.id)).toEqual(recorded);
    } finally {
      await slow.close();
    }
  });

  it('an address the pilot removes while its fetch is under way changes none of their trips', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787', rank: 'FO' });
    server.files.set('removed', ROSTER);
    const saved = await stack.roster.app.inject({ method: 'PUT', url: '/api/roster/subscription', payload: { url: server.url('/roster/removed') }, cookies: pilotCookie(pilot.id) });
    expect(saved.statusCode).toBe(200);
    const trips = () => stack.trips.repositories.trips.listByPilot(pilot.id);
    const before = await trips();

    // Due, and the crew system answers slowly; the pilot removes the address meanwhile.
    server.files.set('removed', CHANGED);
    stack.clock.advance(PAST_NEXT_FETCH);
    server.stalled = true;
    const look = survivorLooks();
    await eventually(async () => server.fetchesOf('removed') === 2, 10_000);
    const removed = await stack.roster.app.inject({ method: 'DELETE', url: '/api/roster/subscription', cookies: pilotCookie(pilot.id) });
    expect(removed.statusCode).toBe(204);
    server.releaseHeld();
    await look;

    expect(await trips()).toEqual(before);
    expect(await historyOf(pilot.id)).toHaveLength(1);
    expect(await rowOf(pilot.id)).toBeUndefined();
  });
});
