/**
 * Issue 39 in notifications: quiet hours and digests as the pilot sets them, and the bell: the
 * alerts push-sender wrote to the notification log (written here as it writes them), read on one
 * device and so on every open one. Holding, releasing and telling of new alerts is push-sender's
 * (services/push-sender/test/alerts.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { DEFAULT_NOTIFICATION_PREFERENCES, realtimePilotSubject, type AlertReason, type BellList } from '@crewswap/proto';
import { startNotifications, type TestNotifications } from './helpers';

jest.setTimeout(60_000);

describe('alerts that matter in notifications: quiet hours as set, and the bell', () => {
  let service: TestNotifications;

  beforeAll(async () => {
    service = await startNotifications();
  });
  afterAll(async () => {
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
  let minute = 0;
  /** An alert as push-sender logs it: a push with a reason, sent (or held, or with no device to go to). */
  const alert = async (pilotId: string, title: string, reason?: AlertReason, status = 'sent') => {
    minute += 1;
    const at = new Date(Date.UTC(2026, 10, 20, 12, minute));
    await service.runtime.db('notification_log').insert({
      id: randomUUID(), command_id: randomUUID(), pilot_id: pilotId, kind: reason ? 'swap_offer' : 'test', dedupe_key: `k:${randomUUID()}`,
      title, body: '', url: '/', reason: reason ?? null, status, created_at: at, updated_at: at,
    });
  };
  const quiet = { start: '22:00', end: '07:00', timeZone: 'Europe/London' };

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
    await alert(me.pilotId, 'Swap offer for your wish JFK', 'wish');
    await alert(me.pilotId, 'Urgent: new swap offer', 'urgent', 'held');
    // Not in the bell: a test push (no reason), an alert turned off in preferences, one too old to send.
    await alert(me.pilotId, 'CrewSwap test notification');
    await alert(me.pilotId, 'New swap proposal', 'proposal', 'skipped');
    await alert(me.pilotId, 'New swap offer', 'offer', 'expired');
    await alert(other.pilotId, 'New swap offer', 'offer');

    const bell = (await call('GET', '/api/notifications/bell', me.cookies)).json() as BellList;
    expect(bell.unread).toBe(2);
    expect(bell.entries.map((e) => [e.reason, e.title, e.read])).toEqual([
      ['urgent', 'Urgent: new swap offer', false],
      ['wish', 'Swap offer for your wish JFK', false],
    ]);

    // Another pilot can neither see nor mark my alerts.
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

  it("tells the pilot's open apps when alerts are marked read, so they are read on every open device at once, and says nothing when none changed", async () => {
    const me = pilot();
    await alert(me.pilotId, 'Swap offer for your wish JFK', 'wish');
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
