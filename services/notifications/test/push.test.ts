/**
 * Push end to end inside one test file: the notifications API (preferences, subscriptions, test
 * pushes), push-sender on the same database and bus, and a push service of our own on loopback
 * http that checks each request is a valid Web Push request.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, PILOT_COOKIE, signAdminToken, signPilotToken, systemClock } from '@crewswap/kit';
import { eventually, TEST_KEYS } from '@crewswap/kit/testing';
import { DEFAULT_NOTIFICATION_PREFERENCES, NOTIFICATION_MESSAGES, SUBJECTS, type EventDataMap } from '@crewswap/proto';
import webpush from 'web-push';
import { pushSenderConfigSchema } from '../src/config';
import { ENDPOINT_NOT_ALLOWED } from '../src/domain/endpoints';
import { createPushSender, type PushSender } from '../src/push/push-sender-app';
import { startNotifications, type TestNotifications } from './helpers';
import { startPushService } from './support/push-service';

jest.setTimeout(60_000);

describe('push notifications', () => {
  const vapid = webpush.generateVAPIDKeys();
  const subject = 'mailto:push-test@crewswap.local';
  let service: TestNotifications;
  let sender: PushSender;
  let push: Awaited<ReturnType<typeof startPushService>>;

  beforeAll(async () => {
    const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: subject, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' };
    service = await startNotifications(env);
    push = await startPushService({ publicKey: vapid.publicKey, subject });
    sender = await createPushSender({ ...pushSenderConfigSchema.parse(env), ...service.config, PORT: 0 }, { clock: systemClock });
  });
  afterAll(async () => {
    await sender?.close();
    await push?.close();
    await service?.stop();
  });

  const pilot = () => {
    const pilotId = randomUUID();
    return { pilotId, cookies: { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) } };
  };
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookies: Record<string, string>, payload?: object) =>
    service.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  const subscribe = (cookies: Record<string, string>, device: { endpoint: string; keys: object }) =>
    call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys });
  const requestPush = (command: EventDataMap[typeof SUBJECTS.sendPush]) =>
    service.sender.db.transaction((trx) => service.sender.outbox.write(trx, SUBJECTS.sendPush, command));
  const logOf = (pilotId: string) => service.runtime.db('notification_log').where({ pilot_id: pilotId }).orderBy('created_at');

  it('serves the VAPID public key the browser subscribes with', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/api/notifications/vapid-public-key' });
    expect(response.json()).toEqual({ publicKey: vapid.publicKey });
  });

  it('validates a subscription: keys of the right length, an endpoint of a known push service', async () => {
    const { cookies } = pilot();
    const device = push.device(`v-${randomUUID()}`);
    const shortKey = await subscribe(cookies, { endpoint: device.endpoint, keys: { ...device.keys, p256dh: 'abc' } });
    expect(shortKey.statusCode).toBe(400);
    expect(shortKey.json().error).toBe('keys.p256dh must be 65 bytes');
    const extra = await call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys, expirationTime: null });
    expect(extra.statusCode).toBe(400);
    const internal = await subscribe(cookies, { endpoint: 'https://auth.crewswap.svc.cluster.local/api/x', keys: device.keys });
    expect(internal.statusCode).toBe(400);
    expect(internal.json().error).toBe(ENDPOINT_NOT_ALLOWED);
    expect((await subscribe({}, device)).statusCode).toBe(401);
    const ok = await subscribe(cookies, device);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ message: NOTIFICATION_MESSAGES.subscribed });
  });

  it('sends a test push to each device as a valid Web Push request, and forgets a device the push service answers 410 for', async () => {
    const { pilotId, cookies } = pilot();
    const phone = push.device(`phone-${randomUUID()}`);
    const oldLaptop = push.device(`laptop-${randomUUID()}`, [410]);
    expect((await subscribe(cookies, phone)).statusCode).toBe(201);
    expect((await subscribe(cookies, oldLaptop)).statusCode).toBe(201);

    const test = await call('POST', '/api/notifications/test', cookies);
    expect(test.statusCode).toBe(202);
    expect(test.json()).toEqual({ message: NOTIFICATION_MESSAGES.testQueued, subscriptions: 2 });

    const received = await eventually(() => push.received.find((r) => r.device === phone.name), 15_000);
    expect(received.payload).toMatchObject({ kind: 'test', title: 'CrewSwap test notification', url: '/' });
    expect(received.ttl).toBeGreaterThan(0);
    await eventually(async () => (await service.runtime.db('push_subscriptions').where({ pilot_id: pilotId })).length === 1, 15_000);
    const [left] = await service.runtime.db('push_subscriptions').where({ pilot_id: pilotId });
    expect(left.endpoint).toBe(phone.endpoint);
    const [entry] = await eventually(async () => {
      const rows = await logOf(pilotId);
      return rows[0]?.status === 'sent' ? rows : undefined;
    }, 15_000);
    expect(entry).toMatchObject({ kind: 'test', status: 'sent' });
    expect(push.invalid).toEqual([]);
  });

  it('sends swap alerts only to pilots with swap alerts on, and WhatsApp group alerts only with those on', async () => {
    const { pilotId, cookies } = pilot();
    const device = push.device(`prefs-${randomUUID()}`);
    await subscribe(cookies, device);
    expect((await call('GET', '/api/notifications/preferences', cookies)).json()).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    const saved = await call('PUT', '/api/notifications/preferences', cookies, { swapNotifications: false });
    expect(saved.json()).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, swapNotifications: false });
    expect((await call('PUT', '/api/notifications/preferences', cookies, { sound: true })).statusCode).toBe(400);

    await requestPush({ pilotId, kind: 'swap_offer', title: 'New swap offer', body: 'VS3 LHR-JFK', url: '/', dedupeKey: `swap:${randomUUID()}` });
    await requestPush({ pilotId, kind: 'whatsapp_group', title: 'WhatsApp group created', body: 'VS3 on 1 Dec', url: '/', dedupeKey: `wa:${randomUUID()}` });
    const rows = await eventually(async () => {
      const all = await logOf(pilotId);
      return all.length === 2 && all.every((row) => row.status !== 'sending') ? all : undefined;
    }, 15_000);
    expect(Object.fromEntries(rows.map((row) => [row.kind, row.status]))).toEqual({ swap_offer: 'skipped', whatsapp_group: 'sent' });
    expect(push.received.filter((r) => r.device === device.name).map((r) => r.payload.kind)).toEqual(['whatsapp_group']);

    // The change went out for swaps to project, versioned per pilot.
    const events = await service.runtime.db('outbox').where({ subject: SUBJECTS.notificationPreferencesChanged });
    expect(events.map((e) => e.envelope.data)).toEqual([{ pilotId, preferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, swapNotifications: false } }]);

    await call('PUT', '/api/notifications/preferences', cookies, { enabled: false });
    await requestPush({ pilotId, kind: 'whatsapp_group', title: 'WhatsApp group created', body: 'VS5', url: '/', dedupeKey: `wa:${randomUUID()}` });
    await eventually(async () => (await logOf(pilotId)).filter((row) => row.status === 'skipped').length === 2, 15_000);
  });

  it('sends a repeated dedupe key once, drops a command older than a few minutes, and retries a failed push', async () => {
    const { pilotId, cookies } = pilot();
    const device = push.device(`retry-${randomUUID()}`, [503]);
    await subscribe(cookies, device);
    const dedupeKey = `swap:${randomUUID()}`;
    await requestPush({ pilotId, kind: 'swap_offer', title: 'Offer', body: 'first', url: '/', dedupeKey });
    await requestPush({ pilotId, kind: 'swap_offer', title: 'Offer', body: 'again', url: '/', dedupeKey });
    const stale = { id: randomUUID(), type: SUBJECTS.sendPush, occurredAt: new Date(Date.now() - 10 * 60_000).toISOString(), version: 1 };
    const bus = service.runtime.bus;
    await bus.js.publish(bus.subject(SUBJECTS.sendPush), JSON.stringify({ ...stale, data: { pilotId, kind: 'swap_offer', title: 'Old', body: 'old', dedupeKey: 'old' } }), { msgID: stale.id });

    // The first try is answered 503, the retry (after the backoff) 201.
    const row = await eventually(async () => {
      const found = await service.runtime.db('notification_log').where({ pilot_id: pilotId, dedupe_key: dedupeKey }).first();
      return found?.status === 'sent' ? found : undefined;
    }, 20_000);
    expect(row.attempts).toBe(2);
    // The two commands are worked on concurrently: either may be the one sent, never both.
    expect(['first', 'again']).toContain(row.body);
    const expired = await eventually(() => service.runtime.db('notification_log').where({ pilot_id: pilotId, dedupe_key: 'old' }).first(), 15_000);
    expect(expired.status).toBe('expired');
    expect(push.received.filter((r) => r.device === device.name).map((r) => r.payload.body)).toEqual([row.body]);
  });

  it('unsubscribes the pilot, and lets only an admin with manage_system clear every subscription', async () => {
    const { pilotId, cookies } = pilot();
    await subscribe(cookies, push.device(`u-${randomUUID()}`));
    expect((await call('DELETE', '/api/notifications/unsubscribe', cookies)).json()).toEqual({ message: NOTIFICATION_MESSAGES.unsubscribed, removed: 1 });
    expect((await call('POST', '/api/notifications/test', cookies)).json()).toEqual({ error: NOTIFICATION_MESSAGES.noSubscription });
    await subscribe(cookies, push.device(`u2-${randomUUID()}`));

    expect((await call('DELETE', '/api/notifications/clear-all', cookies)).statusCode).toBe(401);
    const admin = (permissions: ('manage_system' | 'manage_pilots')[]) => ({
      [ADMIN_COOKIE]: signAdminToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin: false, permissions }),
    });
    expect((await call('DELETE', '/api/notifications/clear-all', admin(['manage_pilots']))).statusCode).toBe(403);
    const cleared = await call('DELETE', '/api/notifications/clear-all', admin(['manage_system']));
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().deleted).toBeGreaterThanOrEqual(1);
    expect(await service.runtime.db('push_subscriptions').where({ pilot_id: pilotId })).toEqual([]);
  });
});
