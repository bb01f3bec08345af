/**
 * The pilot's side of push in notifications: the VAPID key, subscriptions, test pushes queued for
 * push-sender, preferences. Sending them is push-sender's (services/push-sender/test).
 */
import { randomUUID } from 'node:crypto';
import { createECDH, randomBytes } from 'node:crypto';
import { ADMIN_COOKIE, generateVapidKeys, PILOT_COOKIE, signAdminToken, signPilotToken } from '@crewswap/kit';
import { TEST_KEYS } from '@crewswap/kit-testing';
import { DEFAULT_NOTIFICATION_PREFERENCES, NOTIFICATION_MESSAGES, SUBJECTS } from '@crewswap/proto';
import { ENDPOINT_NOT_ALLOWED } from '../src/domain/endpoints';
import { startNotifications, type TestNotifications } from './helpers';

jest.setTimeout(60_000);

describe('push notifications: the pilot\'s side', () => {
  const vapid = generateVapidKeys();
  let service: TestNotifications;

  beforeAll(async () => {
    service = await startNotifications({ VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' });
  });
  afterAll(async () => {
    await service?.stop();
  });
  /** A browser subscribing: its own keys, an endpoint on a loopback push service (never called here). */
  const device = (name: string) => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return { endpoint: `http://127.0.0.1:9/push/${name}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
  };

  const pilot = () => {
    const pilotId = randomUUID();
    return { pilotId, cookies: { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) } };
  };
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookies: Record<string, string>, payload?: object) =>
    service.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  const subscribe = (cookies: Record<string, string>, device: { endpoint: string; keys: object }) =>
    call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys });
  const queuedPushes = async (pilotId: string) =>
    (await service.runtime.db('outbox').where({ subject: SUBJECTS.sendPush })).map((row) => row.envelope.data).filter((data) => data.pilotId === pilotId);

  it('serves the VAPID public key the browser subscribes with', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/api/notifications/vapid-public-key' });
    expect(response.json()).toEqual({ publicKey: vapid.publicKey });
  });

  it('validates a subscription: keys of the right length, an endpoint of a known push service', async () => {
    const { cookies } = pilot();
    const phone = device(`v-${randomUUID()}`);
    const shortKey = await subscribe(cookies, { endpoint: phone.endpoint, keys: { ...phone.keys, p256dh: 'abc' } });
    expect(shortKey.statusCode).toBe(400);
    expect(shortKey.json().error).toBe('keys.p256dh must be 65 bytes');
    const extra = await call('POST', '/api/notifications/subscribe', cookies, { endpoint: phone.endpoint, keys: phone.keys, expirationTime: null });
    expect(extra.statusCode).toBe(400);
    const internal = await subscribe(cookies, { endpoint: 'https://auth.crewswap.svc.cluster.local/api/x', keys: phone.keys });
    expect(internal.statusCode).toBe(400);
    expect(internal.json().error).toBe(ENDPOINT_NOT_ALLOWED);
    expect((await subscribe({}, phone)).statusCode).toBe(401);
    const ok = await subscribe(cookies, phone);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ message: NOTIFICATION_MESSAGES.subscribed });
  });

  it('queues a test push for push-sender, to every device of the pilot, whatever their preferences say', async () => {
    const { pilotId, cookies } = pilot();
    expect((await subscribe(cookies, device(`phone-${randomUUID()}`))).statusCode).toBe(201);
    expect((await subscribe(cookies, device(`laptop-${randomUUID()}`))).statusCode).toBe(201);
    await call('PUT', '/api/notifications/preferences', cookies, { enabled: false });

    const test = await call('POST', '/api/notifications/test', cookies);
    expect(test.statusCode).toBe(202);
    expect(test.json()).toEqual({ message: NOTIFICATION_MESSAGES.testQueued, subscriptions: 2 });
    expect(await queuedPushes(pilotId)).toEqual([{ pilotId, kind: 'test', title: 'CrewSwap test notification', body: 'Push notifications are working on this device.', url: '/', dedupeKey: expect.stringMatching(/^test:/) }]);
  });

  it('keeps preferences per pilot, refuses a field it does not know, and tells swaps of each change, versioned', async () => {
    const { pilotId, cookies } = pilot();
    expect((await call('GET', '/api/notifications/preferences', cookies)).json()).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    const saved = await call('PUT', '/api/notifications/preferences', cookies, { swapNotifications: false });
    expect(saved.json()).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, swapNotifications: false });
    expect((await call('PUT', '/api/notifications/preferences', cookies, { sound: true })).statusCode).toBe(400);
    expect((await call('GET', '/api/notifications/preferences', cookies)).json()).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, swapNotifications: false });

    const events = await service.runtime.db('outbox').where({ subject: SUBJECTS.notificationPreferencesChanged });
    expect(events.filter((e) => e.envelope.data.pilotId === pilotId).map((e) => [e.envelope.version, e.envelope.data])).toEqual([
      [1, { pilotId, preferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, swapNotifications: false } }],
    ]);
  });

  it('unsubscribes the pilot, and lets only an admin with manage_system clear every subscription', async () => {
    const { pilotId, cookies } = pilot();
    await subscribe(cookies, device(`u-${randomUUID()}`));
    expect((await call('DELETE', '/api/notifications/unsubscribe', cookies)).json()).toEqual({ message: NOTIFICATION_MESSAGES.unsubscribed, removed: 1 });
    expect((await call('POST', '/api/notifications/test', cookies)).json()).toEqual({ error: NOTIFICATION_MESSAGES.noSubscription });
    await subscribe(cookies, device(`u2-${randomUUID()}`));

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
