/**
 * Issue 39 in notifications: quiet hours hold alerts and release them folded (push-sender on a
 * clock the test moves), urgent offers through when the pilot allows it, and the bell, whose new
 * alerts are told to the pilot's open apps.
 */
import { randomUUID } from 'node:crypto';
import { fixedClock, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { eventually, TEST_KEYS } from '@crewswap/kit/testing';
import { DEFAULT_NOTIFICATION_PREFERENCES, realtimePilotSubject, SUBJECTS, type BellList, type EventDataMap } from '@crewswap/proto';
import webpush from 'web-push';
import { pushSenderConfigSchema } from '../src/config';
import { createPushSender, type PushSender } from '../src/push/push-sender-app';
import { startNotifications, type TestNotifications } from './helpers';
import { startPushService } from './support/push-service';

jest.setTimeout(60_000);

describe('alerts that matter: quiet hours and the bell', () => {
  const vapid = webpush.generateVAPIDKeys();
  const subject = 'mailto:alerts-test@crewswap.local';
  // Before the real time, so that no command looks too old to push-sender.
  const clock = fixedClock('2026-11-20T21:00:00Z');
  let service: TestNotifications;
  let sender: PushSender;
  let push: Awaited<ReturnType<typeof startPushService>>;

  beforeAll(async () => {
    const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: subject, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' };
    service = await startNotifications(env);
    push = await startPushService({ publicKey: vapid.publicKey, subject });
    sender = await createPushSender({ ...pushSenderConfigSchema.parse(env), ...service.config, PORT: 0 }, { clock });
  });
  afterAll(async () => {
    await sender?.close();
    await push?.close();
    await service?.stop();
  });

  const pilot = () => {
    const pilotId = randomUUID();
    const session = () => ({ [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) });
    return { pilotId, cookies: session(), otherDevice: session() };
  };
  /** What the pilot's open apps hear (realtime.pilot.<id>), as realtime does. */
  const listenAsOpenApps = async (pilotId: string) => {
    const bus = service.runtime.bus;
    const heard: unknown[] = [];
    const subscription = bus.nc.subscribe(bus.subject(realtimePilotSubject(pilotId)), {
      callback: (error, message) => {
        if (!error) heard.push(JSON.parse(message.string()));
      },
    });
    await bus.nc.flush();
    return { heard, subscription };
  };
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, cookies: Record<string, string>, payload?: object) =>
    service.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  const requestPush = (command: Omit<EventDataMap[typeof SUBJECTS.sendPush], 'dedupeKey' | 'kind' | 'body'>) =>
    service.sender.db.transaction((trx) =>
      service.sender.outbox.write(trx, SUBJECTS.sendPush, { kind: 'swap_offer', body: 'VS3 LHR-JFK', dedupeKey: `swap:${randomUUID()}`, ...command }),
    );
  const statuses = (pilotId: string) => service.runtime.db('notification_log').where({ pilot_id: pilotId }).orderBy('created_at').pluck('status');
  const receivedBy = (device: { name: string }) => push.received.filter((r) => r.device === device.name).map((r) => r.payload.title);
  const quiet = { start: '22:00', end: '07:00', timeZone: 'Europe/London' };

  it('holds alerts in quiet hours and, when they end, sends them folded into one; nothing is dropped', async () => {
    const { pilotId, cookies } = pilot();
    const device = push.device(`quiet-${randomUUID()}`);
    expect((await call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys })).statusCode).toBe(201);
    const saved = await call('PUT', '/api/notifications/preferences', cookies, { quietHours: quiet, urgent: false });
    expect(saved.json()).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, quietHours: quiet, urgent: false });

    clock.set('2026-11-20T23:30:00Z'); // 23:30 in London: quiet
    for (const title of ['New swap offer', 'New swap offer', 'Urgent: new swap offer']) {
      await requestPush({ pilotId, title, reason: title.startsWith('Urgent') ? 'urgent' : 'offer', urgent: title.startsWith('Urgent') });
    }
    await eventually(async () => ((await statuses(pilotId)).filter((s) => s === 'held').length === 3 ? true : undefined), 15_000);
    await sender.releaseHeld.execute();
    expect(receivedBy(device)).toEqual([]);
    expect(await statuses(pilotId)).toEqual(['held', 'held', 'held']);

    clock.set('2026-11-21T07:00:00Z'); // 07:00: quiet hours are over
    expect(await sender.releaseHeld.execute()).toEqual({ pilots: expect.any(Number), pushes: 3 });
    const [folded] = await eventually(async () => (receivedBy(device).length > 0 ? push.received.filter((r) => r.device === device.name) : undefined), 15_000);
    expect(folded!.payload.title).toBe('3 new swap offers');
    // Held at the same moment of the test's clock, so in no particular order.
    expect(folded!.payload.body.split('\n').sort()).toEqual(['New swap offer', 'New swap offer', 'Urgent: new swap offer']);
    // The device may have the push a moment before its log row says 'sent'.
    const settled = await eventually(async () => {
      const now = await statuses(pilotId);
      return now.includes('sending') ? undefined : now;
    }, 15_000);
    expect(settled).toEqual(['released', 'released', 'released', 'sent']);
    // Released once: a second run finds nothing.
    expect((await sender.releaseHeld.execute()).pushes).toBe(0);
  });

  it('lets an urgent offer through quiet hours when the pilot allows it; others still wait', async () => {
    const { pilotId, cookies } = pilot();
    const device = push.device(`urgent-${randomUUID()}`);
    await call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys });
    await call('PUT', '/api/notifications/preferences', cookies, { quietHours: quiet, urgent: true });
    clock.set('2026-11-20T02:00:00Z');
    await requestPush({ pilotId, title: 'Urgent: new swap offer', reason: 'urgent', urgent: true });
    await requestPush({ pilotId, title: 'New swap offer', reason: 'offer' });
    await eventually(() => (receivedBy(device).length === 1 ? true : undefined), 15_000);
    await eventually(async () => ((await statuses(pilotId)).includes('held') ? true : undefined), 15_000);
    expect(receivedBy(device)).toEqual(['Urgent: new swap offer']);
    clock.set('2026-11-20T09:00:00Z');
    await sender.releaseHeld.execute();
    // One held push goes out as it was, not folded.
    await eventually(() => (receivedBy(device).length === 2 ? true : undefined), 15_000);
    expect(receivedBy(device)).toEqual(['Urgent: new swap offer', 'New swap offer']);
  });

  it('refuses quiet hours and digests that make no sense, and changes nothing', async () => {
    const { cookies } = pilot();
    const cases: [object, string][] = [
      [{ quietHours: { ...quiet, timeZone: 'Mars/Olympus' } }, 'timeZone must be a time zone such as Europe/London'],
      [{ quietHours: { ...quiet, start: '25:00' } }, 'Times must be HH:MM (24-hour)'],
      [{ quietHours: { ...quiet, end: '22:00' } }, 'Quiet hours must start and end at different times'],
      [{ digest: { hour: 24, timeZone: 'Europe/London' } }, 'hour must be 0 to 23'],
    ];
    for (const [body, message] of cases) {
      const response = await call('PUT', '/api/notifications/preferences', cookies, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(message);
    }
    expect((await call('GET', '/api/notifications/preferences', cookies)).json()).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
  });

  it('lists alerts in the bell with their reason, newest first, and marks them read on every device', async () => {
    const me = pilot();
    const other = pilot();
    clock.set('2026-11-20T12:00:00Z');
    await requestPush({ pilotId: me.pilotId, title: 'Swap offer for your wish JFK', reason: 'wish' });
    await requestPush({ pilotId: me.pilotId, title: 'Urgent: new swap offer', reason: 'urgent', urgent: true });
    await service.sender.db.transaction((trx) =>
      service.sender.outbox.write(trx, SUBJECTS.sendPush, { pilotId: me.pilotId, kind: 'test', title: 'CrewSwap test notification', body: '', dedupeKey: `test:${randomUUID()}` }),
    );
    await requestPush({ pilotId: other.pilotId, title: 'New swap offer', reason: 'offer' });
    await eventually(async () => ((await statuses(me.pilotId)).length === 3 && !(await statuses(me.pilotId)).includes('sending') ? true : undefined), 15_000);

    const bell = (await call('GET', '/api/notifications/bell', me.cookies)).json() as BellList;
    expect(bell.unread).toBe(2);
    expect(bell.entries.map((e) => [e.reason, e.title, e.read]).sort()).toEqual([
      ['urgent', 'Urgent: new swap offer', false],
      ['wish', 'Swap offer for your wish JFK', false],
    ]);

    // Another pilot can neither see nor mark my alerts.
    await eventually(async () => ((await statuses(other.pilotId)).length === 1 ? true : undefined), 15_000);
    const theirs = (await call('GET', '/api/notifications/bell', other.cookies)).json() as BellList;
    expect(theirs.entries.map((e) => e.title)).toEqual(['New swap offer']);
    const meddle = await call('POST', '/api/notifications/bell/read', other.cookies, { ids: bell.entries.map((e) => e.id) });
    expect(meddle.json()).toEqual({ unread: 1 });
    expect(((await call('GET', '/api/notifications/bell', me.cookies)).json() as BellList).unread).toBe(2);

    // Read on one device: read on the other.
    const read = await call('POST', '/api/notifications/bell/read', me.cookies, { ids: [bell.entries[0]!.id] });
    expect(read.json()).toEqual({ unread: 1 });
    expect(((await call('GET', '/api/notifications/bell', me.otherDevice)).json() as BellList).entries.find((e) => e.id === bell.entries[0]!.id)?.read).toBe(true);
    expect((await call('POST', '/api/notifications/bell/read', me.otherDevice, {})).json()).toEqual({ unread: 0 });
    expect((await call('POST', '/api/notifications/bell/read', me.cookies, { ids: ['nope'] })).statusCode).toBe(400);
    expect((await service.app.inject({ method: 'GET', url: '/api/notifications/bell' })).statusCode).toBe(401);
  });

  it("tells the pilot's open apps (realtime.pilot.<id>) when an alert is written to the bell, and not for a push that is not one", async () => {
    const me = pilot();
    const { heard, subscription } = await listenAsOpenApps(me.pilotId);
    try {
      clock.set('2026-11-20T12:00:00Z');
      // Not in the bell: a test push (no reason) and a proposal alert the pilot turned off.
      expect((await call('PUT', '/api/notifications/preferences', me.cookies, { swapProposals: false })).statusCode).toBe(200);
      const command = (kind: 'test' | 'swap_proposal', title: string, reason?: 'proposal') =>
        service.sender.db.transaction((trx) =>
          service.sender.outbox.write(trx, SUBJECTS.sendPush, { pilotId: me.pilotId, kind, title, body: '', dedupeKey: `${kind}:${randomUUID()}`, ...(reason ? { reason } : {}) }),
        );
      await command('test', 'CrewSwap test notification');
      await command('swap_proposal', 'New swap proposal', 'proposal');
      await eventually(async () => ((await statuses(me.pilotId)).sort().join() === 'no_subscription,skipped' ? true : undefined), 15_000);

      await requestPush({ pilotId: me.pilotId, title: 'Swap offer for your wish JFK', reason: 'wish' });
      await eventually(async () => (heard.length > 0 ? true : undefined), 15_000);
      // One publisher, messages in order: the two before would have come first.
      expect(heard).toEqual([{ type: 'bell-updated', message: 'bell-updated', reason: 'wish', at: '2026-11-20T12:00:00.000Z' }]);
    } finally {
      subscription.unsubscribe();
    }
  });

  it("tells the pilot's open apps when alerts are marked read, so they are read on every open device at once, and says nothing when none changed", async () => {
    const me = pilot();
    clock.set('2026-11-20T12:00:00Z');
    await requestPush({ pilotId: me.pilotId, title: 'Swap offer for your wish JFK', reason: 'wish' });
    await eventually(async () => ((await call('GET', '/api/notifications/bell', me.cookies)).json() as BellList).unread === 1 || undefined, 15_000);
    const { heard, subscription } = await listenAsOpenApps(me.pilotId);
    try {
      expect((await call('POST', '/api/notifications/bell/read', me.cookies, {})).json()).toEqual({ unread: 0 });
      await eventually(() => (heard.length > 0 ? true : undefined), 5_000);
      // No reason: alerts were read, none written.
      expect(heard).toEqual([{ type: 'bell-updated', message: 'bell-updated', at: expect.any(String) }]);

      // Nothing left unread: nothing to tell. The marker below is the next message, not a second read mark.
      expect((await call('POST', '/api/notifications/bell/read', me.cookies, {})).json()).toEqual({ unread: 0 });
      service.runtime.bus.nc.publish(service.runtime.bus.subject(realtimePilotSubject(me.pilotId)), JSON.stringify({ marker: true }));
      await eventually(() => (heard.length > 1 ? true : undefined), 5_000);
      expect(heard[1]).toEqual({ marker: true });
    } finally {
      subscription.unsubscribe();
    }
  });
});
