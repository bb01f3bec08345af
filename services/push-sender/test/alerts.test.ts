/**
 * Issue 39 in push-sender: quiet hours hold alerts and release them folded (on a clock the test
 * moves), urgent offers go through when the pilot allows it, and a new alert in the bell is told to
 * the pilot's open apps.
 */
import { randomUUID } from 'node:crypto';
import { fixedClock, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { DEFAULT_NOTIFICATION_PREFERENCES, realtimePilotSubject, SUBJECTS, type EventDataMap } from '@crewswap/proto';
import { startPushSender, type TestPushSender } from './helpers';

jest.setTimeout(60_000);

describe('alerts that matter: quiet hours and the bell', () => {
  // Before the real time, so that no command looks too old to push-sender.
  const clock = fixedClock('2026-11-20T21:00:00Z');
  let t: TestPushSender;

  beforeAll(async () => {
    t = await startPushSender(clock);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const pilot = () => {
    const pilotId = randomUUID();
    return { pilotId, cookies: { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) } };
  };
  /** What the pilot's open apps hear (realtime.pilot.<id>), as realtime does. */
  const listenAsOpenApps = async (pilotId: string) => {
    const bus = t.notifications.runtime.bus;
    const heard: unknown[] = [];
    const subscription = bus.nc.subscribe(bus.subject(realtimePilotSubject(pilotId)), {
      callback: (error, message) => {
        if (!error) heard.push(JSON.parse(message.string()));
      },
    });
    await bus.nc.flush();
    return { heard, subscription };
  };
  const call = (method: 'PUT' | 'POST', url: string, cookies: Record<string, string>, payload?: object) =>
    t.notifications.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  const requestPush = (command: Omit<EventDataMap[typeof SUBJECTS.sendPush], 'dedupeKey' | 'kind' | 'body'>) =>
    t.requestPush({ kind: 'swap_offer', body: 'VS3 LHR-JFK', dedupeKey: `swap:${randomUUID()}`, ...command });
  const statuses = (pilotId: string) => t.statuses(pilotId);
  const receivedBy = (device: { name: string }) => t.push.received.filter((r) => r.device === device.name).map((r) => r.payload.title);
  const quiet = { start: '22:00', end: '07:00', timeZone: 'Europe/London' };

  it('holds alerts in quiet hours and, when they end, sends them folded into one; nothing is dropped', async () => {
    const { pilotId, cookies } = pilot();
    const device = t.push.device(`quiet-${randomUUID()}`);
    expect((await call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys })).statusCode).toBe(201);
    const saved = await call('PUT', '/api/notifications/preferences', cookies, { quietHours: quiet, urgent: false });
    expect(saved.json()).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, quietHours: quiet, urgent: false });

    clock.set('2026-11-20T23:30:00Z'); // 23:30 in London: quiet
    for (const title of ['New swap offer', 'New swap offer', 'Urgent: new swap offer']) {
      await requestPush({ pilotId, title, reason: title.startsWith('Urgent') ? 'urgent' : 'offer', urgent: title.startsWith('Urgent') });
    }
    await eventually(async () => ((await statuses(pilotId)).filter((s) => s === 'held').length === 3 ? true : undefined), 15_000);
    await t.sender.releaseHeld.execute();
    expect(receivedBy(device)).toEqual([]);
    expect(await statuses(pilotId)).toEqual(['held', 'held', 'held']);

    clock.set('2026-11-21T07:00:00Z'); // 07:00: quiet hours are over
    expect(await t.sender.releaseHeld.execute()).toEqual({ pilots: expect.any(Number), pushes: 3 });
    const [folded] = await eventually(async () => (receivedBy(device).length > 0 ? t.push.received.filter((r) => r.device === device.name) : undefined), 15_000);
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
    expect((await t.sender.releaseHeld.execute()).pushes).toBe(0);
  });

  it('lets an urgent offer through quiet hours when the pilot allows it; others still wait', async () => {
    const { pilotId, cookies } = pilot();
    const device = t.push.device(`urgent-${randomUUID()}`);
    await call('POST', '/api/notifications/subscribe', cookies, { endpoint: device.endpoint, keys: device.keys });
    await call('PUT', '/api/notifications/preferences', cookies, { quietHours: quiet, urgent: true });
    clock.set('2026-11-20T02:00:00Z');
    await requestPush({ pilotId, title: 'Urgent: new swap offer', reason: 'urgent', urgent: true });
    await requestPush({ pilotId, title: 'New swap offer', reason: 'offer' });
    await eventually(() => (receivedBy(device).length === 1 ? true : undefined), 15_000);
    await eventually(async () => ((await statuses(pilotId)).includes('held') ? true : undefined), 15_000);
    expect(receivedBy(device)).toEqual(['Urgent: new swap offer']);
    clock.set('2026-11-20T09:00:00Z');
    await t.sender.releaseHeld.execute();
    // One held push goes out as it was, not folded.
    await eventually(() => (receivedBy(device).length === 2 ? true : undefined), 15_000);
    expect(receivedBy(device)).toEqual(['Urgent: new swap offer', 'New swap offer']);
  });

  it("tells the pilot's open apps (realtime.pilot.<id>) when an alert is written to the bell, and not for a push that is not one", async () => {
    const me = pilot();
    const { heard, subscription } = await listenAsOpenApps(me.pilotId);
    try {
      clock.set('2026-11-20T12:00:00Z');
      // Not in the bell: a test push (no reason) and a proposal alert the pilot turned off.
      expect((await call('PUT', '/api/notifications/preferences', me.cookies, { swapProposals: false })).statusCode).toBe(200);
      const command = (kind: 'test' | 'swap_proposal', title: string, reason?: 'proposal') =>
        t.requestPush({ pilotId: me.pilotId, kind, title, body: '', dedupeKey: `${kind}:${randomUUID()}`, ...(reason ? { reason } : {}) });
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

  it('holds a roster change (reason roster_change) in quiet hours like any alert that is not urgent, tells the bell, and sends it when they end', async () => {
    const me = pilot();
    const device = t.push.device(`roster-${randomUUID()}`);
    expect((await call('POST', '/api/notifications/subscribe', me.cookies, { endpoint: device.endpoint, keys: device.keys })).statusCode).toBe(201);
    // Urgent offers may come through; a roster change is not one of them.
    expect((await call('PUT', '/api/notifications/preferences', me.cookies, { quietHours: quiet, urgent: true })).statusCode).toBe(200);
    const { heard, subscription } = await listenAsOpenApps(me.pilotId);
    try {
      clock.set('2026-11-21T01:00:00Z'); // 01:00 in London: quiet
      await t.requestPush({ pilotId: me.pilotId, kind: 'roster_change', reason: 'roster_change', title: 'Your roster changed: 1 added', body: '1 added, 0 changed, 0 removed', url: '/', dedupeKey: `roster_fetch:${randomUUID()}` });
      await eventually(async () => ((await statuses(me.pilotId)).join() === 'held' ? true : undefined), 15_000);
      await eventually(async () => (heard.length > 0 ? true : undefined), 15_000);
      expect(heard).toEqual([{ type: 'bell-updated', message: 'bell-updated', reason: 'roster_change', at: '2026-11-21T01:00:00.000Z' }]);
      await t.sender.releaseHeld.execute();
      expect(receivedBy(device)).toEqual([]);

      clock.set('2026-11-21T07:30:00Z');
      await t.sender.releaseHeld.execute();
      // One held push goes out as it was.
      await eventually(() => (receivedBy(device).length === 1 ? true : undefined), 15_000);
      expect(t.push.received.filter((r) => r.device === device.name).map((r) => r.payload)).toEqual([expect.objectContaining({ kind: 'roster_change', title: 'Your roster changed: 1 added' })]);
    } finally {
      subscription.unsubscribe();
    }
  });
});
