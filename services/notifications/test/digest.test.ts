import { randomUUID } from 'node:crypto';
import { PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { eventually, TEST_KEYS } from '@crewswap/kit-testing';
import { DEFAULT_NOTIFICATION_PREFERENCES, DIGEST_MESSAGES } from '@crewswap/proto';
import { headersOf, startNotifications, type TestNotifications } from './helpers';

describe('the daily digest mail', () => {
  let service: TestNotifications;
  beforeAll(async () => {
    service = await startNotifications();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const digest = { hour: 7, timeZone: 'Europe/London' };

  it('carries a signed one-click unsubscribe link and List-Unsubscribe; the link turns the digest off without login', async () => {
    const pilotId = randomUUID();
    const cookies = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) };
    await service.app.inject({ method: 'PUT', url: '/api/notifications/preferences', cookies, payload: { digest } });
    const before = (await service.emlFiles()).length;
    await service.requestMail({ to: 'dana@fly.virgin.com', subject: 'CrewSwap daily digest: 1 new swap offer', text: 'Hello Dana,\n\nYour trip VS101/VS102 JFK', html: '<html><body><p>Hello Dana,</p></body></html>', digestFor: pilotId });
    const [file] = await eventually(async () => ((await service.emlFiles()).length > before ? (await service.emlFiles()).slice(before) : undefined), 15_000);
    const eml = await service.readEml(file!);
    const headers = headersOf(eml);
    const link = /^<(http:\/\/localhost:8080\/api\/notifications\/digest\/unsubscribe\?token=[^>]+)>$/.exec(headers['list-unsubscribe']!)?.[1];
    expect(link).toBeDefined();
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(headers.subject).toBe('CrewSwap daily digest: 1 new swap offer');
    expect(eml.replace(/=\r\n/g, '')).toContain('Unsubscribe from the daily digest:');

    const path = link!.slice('http://localhost:8080'.length);
    // The link clicked shows a button; a scanner that follows it changes nothing.
    const page = await service.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect((await service.app.inject({ method: 'GET', url: '/api/notifications/preferences', cookies })).json()).toMatchObject({ digest });

    // A mail client's one-click POST: a form body, no cookie.
    const off = await service.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ message: DIGEST_MESSAGES.unsubscribed });
    expect((await service.app.inject({ method: 'GET', url: '/api/notifications/preferences', cookies })).json()).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
  });

  it("refuses a link that is not ours, or another pilot's id with this pilot's signature, and changes nothing", async () => {
    const pilotId = randomUUID();
    const cookies = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) };
    await service.app.inject({ method: 'PUT', url: '/api/notifications/preferences', cookies, payload: { digest } });
    const signature = service.digestLinks.url(randomUUID()).split('.').at(-1);
    for (const token of [`${pilotId}.${signature}`, 'nonsense', `${pilotId}.`]) {
      const response = await service.app.inject({ method: 'POST', url: `/api/notifications/digest/unsubscribe?token=${encodeURIComponent(token)}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(DIGEST_MESSAGES.badLink);
    }
    expect((await service.app.inject({ method: 'GET', url: '/api/notifications/preferences', cookies })).json()).toMatchObject({ digest });
  });
});
