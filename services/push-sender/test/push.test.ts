/**
 * Web push end to end: pilots subscribe and set their preferences through notifications, other
 * services ask for pushes through their outbox, push-sender sends them to a push service of our
 * own that checks each is a valid Web Push request.
 */
import { randomUUID } from 'node:crypto';
import { PILOT_COOKIE, signPilotToken, systemClock } from '@crewswap/kit';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { DEFAULT_NOTIFICATION_PREFERENCES, NOTIFICATION_MESSAGES, SUBJECTS } from '@crewswap/proto';
import { wantsPush } from '../src/domain/deliver-push';
import { startPushSender, type TestPushSender } from './helpers';

jest.setTimeout(60_000);

describe('push-sender', () => {
  let t: TestPushSender;

  beforeAll(async () => {
    t = await startPushSender(systemClock);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const pilot = () => {
    const pilotId = randomUUID();
    return { pilotId, cookies: { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) } };
  };
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookies: Record<string, string>, payload?: object) =>
    t.notifications.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  const subscribe = (cookies: Record<string, string>, device: { endpoint: string; keys: object }) =>
    call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys });
  const logOf = (pilotId: string) => t.notifications.runtime.db('notification_log').where({ pilot_id: pilotId }).orderBy('created_at');

  it('sends a test push to each device as a valid Web Push request, and forgets a device the push service answers 410 for', async () => {
    const { pilotId, cookies } = pilot();
    const phone = t.push.device(`phone-${randomUUID()}`);
    const oldLaptop = t.push.device(`laptop-${randomUUID()}`, [410]);
    expect((await subscribe(cookies, phone)).statusCode).toBe(201);
    expect((await subscribe(cookies, oldLaptop)).statusCode).toBe(201);

    const test = await call('POST', '/api/notifications/test', cookies);
    expect(test.statusCode).toBe(202);
    expect(test.json()).toEqual({ message: NOTIFICATION_MESSAGES.testQueued, subscriptions: 2 });

    const received = await eventually(() => t.push.received.find((r) => r.device === phone.name), 15_000);
    expect(received.payload).toMatchObject({ kind: 'test', title: 'CrewSwap test notification', url: '/' });
    expect(received.ttl).toBeGreaterThan(0);
    await eventually(async () => (await t.notifications.runtime.db('push_subscriptions').where({ pilot_id: pilotId })).length === 1, 15_000);
    const [left] = await t.notifications.runtime.db('push_subscriptions').where({ pilot_id: pilotId });
    expect(left.endpoint).toBe(phone.endpoint);
    const [entry] = await eventually(async () => {
      const rows = await logOf(pilotId);
      return rows[0]?.status === 'sent' ? rows : undefined;
    }, 15_000);
    expect(entry).toMatchObject({ kind: 'test', status: 'sent' });
    expect(t.push.invalid).toEqual([]);
  });

  it('sends swap alerts only to pilots with swap alerts on, and WhatsApp group alerts only with those on', async () => {
    const { pilotId, cookies } = pilot();
    const device = t.push.device(`prefs-${randomUUID()}`);
    await subscribe(cookies, device);
    const saved = await call('PUT', '/api/notifications/preferences', cookies, { swapNotifications: false });
    expect(saved.json()).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, swapNotifications: false });

    await t.requestPush({ pilotId, kind: 'swap_offer', title: 'New swap offer', body: 'VS3 LHR-JFK', url: '/', dedupeKey: `swap:${randomUUID()}` });
    await t.requestPush({ pilotId, kind: 'whatsapp_group', title: 'WhatsApp group created', body: 'VS3 on 1 Dec', url: '/', dedupeKey: `wa:${randomUUID()}` });
    const rows = await eventually(async () => {
      const all = await logOf(pilotId);
      return all.length === 2 && all.every((row) => row.status !== 'sending') ? all : undefined;
    }, 15_000);
    expect(Object.fromEntries(rows.map((row) => [row.kind, row.status]))).toEqual({ swap_offer: 'skipped', whatsapp_group: 'sent' });
    expect(t.push.received.filter((r) => r.device === device.name).map((r) => r.payload.kind)).toEqual(['whatsapp_group']);

    await call('PUT', '/api/notifications/preferences', cookies, { enabled: false });
    await t.requestPush({ pilotId, kind: 'whatsapp_group', title: 'WhatsApp group created', body: 'VS5', url: '/', dedupeKey: `wa:${randomUUID()}` });
    await eventually(async () => (await logOf(pilotId)).filter((row) => row.status === 'skipped').length === 2, 15_000);
  });

  it('sends a repeated dedupe key once, drops a command older than a few minutes, and retries a failed push', async () => {
    const { pilotId, cookies } = pilot();
    const device = t.push.device(`retry-${randomUUID()}`, [503]);
    await subscribe(cookies, device);
    const dedupeKey = `swap:${randomUUID()}`;
    await t.requestPush({ pilotId, kind: 'swap_offer', title: 'Offer', body: 'first', url: '/', dedupeKey });
    await t.requestPush({ pilotId, kind: 'swap_offer', title: 'Offer', body: 'again', url: '/', dedupeKey });
    const stale = { id: randomUUID(), type: SUBJECTS.sendPush, occurredAt: new Date(Date.now() - 10 * 60_000).toISOString(), version: 1 };
    const bus = t.notifications.runtime.bus;
    await bus.js.publish(bus.subject(SUBJECTS.sendPush), JSON.stringify({ ...stale, data: { pilotId, kind: 'swap_offer', title: 'Old', body: 'old', dedupeKey: 'old' } }), { msgID: stale.id });

    // The first try is answered 503, the retry (after the backoff) 201.
    const row = await eventually(async () => {
      const found = await t.notifications.runtime.db('notification_log').where({ pilot_id: pilotId, dedupe_key: dedupeKey }).first();
      return found?.status === 'sent' ? found : undefined;
    }, 20_000);
    expect(row.attempts).toBe(2);
    // The two commands are worked on concurrently: either may be the one sent, never both.
    expect(['first', 'again']).toContain(row.body);
    const expired = await eventually(() => t.notifications.runtime.db('notification_log').where({ pilot_id: pilotId, dedupe_key: 'old' }).first(), 15_000);
    expect(expired.status).toBe('expired');
    expect(t.push.received.filter((r) => r.device === device.name).map((r) => r.payload.body)).toEqual([row.body]);
  });

  it('sends a roster change (reason roster_change) to a pilot with push on whatever the swap, WhatsApp and proposal switches say, and none with push off', async () => {
    const { pilotId, cookies } = pilot();
    const device = t.push.device(`roster-${randomUUID()}`);
    expect((await subscribe(cookies, device)).statusCode).toBe(201);
    const switchesOff = { swapNotifications: false, whatsappGroupAlerts: false, swapProposals: false };
    const saved = await call('PUT', '/api/notifications/preferences', cookies, switchesOff);
    expect(saved.json()).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, ...switchesOff });

    // As roster-ingest asks after a scheduled fetch changed the roster; a swap offer beside it for contrast.
    const title = 'Your roster changed: 1 added, 1 removed';
    await t.requestPush({ pilotId, kind: 'roster_change', reason: 'roster_change', title, body: '1 added, 0 changed, 1 removed', url: '/', dedupeKey: `roster_fetch:${pilotId}:1` });
    await t.requestPush({ pilotId, kind: 'swap_offer', reason: 'offer', title: 'New swap offer', body: 'VS3 LHR-JFK', url: '/', dedupeKey: `swap:${randomUUID()}` });
    const rows = await eventually(async () => {
      const all = await logOf(pilotId);
      return all.length === 2 && all.every((row) => row.status !== 'sending') ? all : undefined;
    }, 15_000);
    expect(Object.fromEntries(rows.map((row) => [row.kind, row.status]))).toEqual({ roster_change: 'sent', swap_offer: 'skipped' });
    expect(rows.find((row) => row.kind === 'roster_change')).toMatchObject({ reason: 'roster_change', title, attempts: 1 });
    const received = await eventually(() => {
      const mine = t.push.received.filter((r) => r.device === device.name);
      return mine.length > 0 ? mine : undefined;
    }, 15_000);
    expect(received.map((r) => r.payload)).toEqual([expect.objectContaining({ kind: 'roster_change', title, url: '/' })]);

    // Push turned off: the roster change is logged as skipped and not sent.
    await call('PUT', '/api/notifications/preferences', cookies, { enabled: false });
    await t.requestPush({ pilotId, kind: 'roster_change', reason: 'roster_change', title: 'Your roster address stopped working', body: 'paused', url: '/', dedupeKey: `roster_paused:${pilotId}:2` });
    const paused = await eventually(async () => {
      const row = await t.notifications.runtime.db('notification_log').where({ pilot_id: pilotId, dedupe_key: `roster_paused:${pilotId}:2` }).first();
      return row && row.status !== 'sending' ? row : undefined;
    }, 15_000);
    expect(paused).toMatchObject({ kind: 'roster_change', status: 'skipped', detail: 'turned off in preferences' });
    expect(t.push.received.filter((r) => r.device === device.name)).toHaveLength(1);
    expect(t.push.invalid).toEqual([]);
  });

  it('wants a roster change push whenever push is on: it has no switch of its own', () => {
    const allOff = { ...DEFAULT_NOTIFICATION_PREFERENCES, swapNotifications: false, whatsappGroupAlerts: false, swapProposals: false };
    expect(wantsPush('roster_change', DEFAULT_NOTIFICATION_PREFERENCES)).toBe(true);
    expect(wantsPush('roster_change', allOff)).toBe(true);
    expect(wantsPush('roster_change', { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: false })).toBe(false);
  });

  it("'Swap proposals' is on by default and turns off proposal pushes alone", () => {
    expect(DEFAULT_NOTIFICATION_PREFERENCES.swapProposals).toBe(true);
    expect(wantsPush('swap_proposal', DEFAULT_NOTIFICATION_PREFERENCES)).toBe(true);
    expect(wantsPush('swap_proposal', { ...DEFAULT_NOTIFICATION_PREFERENCES, swapProposals: false })).toBe(false);
    expect(wantsPush('swap_offer', { ...DEFAULT_NOTIFICATION_PREFERENCES, swapProposals: false })).toBe(true);
  });
});
