import { CALENDAR_FEED_MESSAGES, SUBJECTS, SYSTEM_SHUTDOWN_MESSAGE, SYSTEM_SHUTDOWN_TITLE, type Trip } from '@crewswap/proto';
import { eventually } from '@crewswap/kit-testing';
import ical, { type VEvent } from 'node-ical';
import { hashToken } from '../src/domain/calendar/feed';
import { adminCookie, makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

const ORIGIN = 'https://crewswap.example.com';

/** A date node-ical read from a VALUE=DATE property (a local midnight), as YYYY-MM-DD. */
const dayOf = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

describe('Calendar feed: a private address with the pilot’s upcoming trips', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ config: { APP_ORIGIN: ORIGIN } });
  });
  afterAll(async () => {
    await service.stop();
  });

  async function newPilot() {
    const pilot = await registerPilot(service, makePilot());
    const cookies = pilotCookie(pilot.id);
    const post = async (body: Record<string, unknown>) => (await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: body })).json() as Trip;
    const feedCall = (method: 'GET' | 'POST' | 'DELETE') => service.app.inject({ method, url: '/api/calendar/feed', cookies });
    const turnOn = async () => (await feedCall('POST')).json().url as string;
    return { pilot, cookies, post, feedCall, turnOn };
  }

  /** The feed's path on this service, from its webcal:// address. */
  const pathOf = (url: string) => {
    expect(url.startsWith(`webcal://crewswap.example.com/api/calendar/`)).toBe(true);
    return url.slice('webcal://crewswap.example.com'.length);
  };
  const read = (url: string, headers: Record<string, string> = {}) => service.app.inject({ method: 'GET', url: pathOf(url), headers });
  const events = (text: string) =>
    Object.values(ical.sync.parseICS(text))
      .filter((component): component is VEvent => component?.type === 'VEVENT')
      .sort((a, b) => a.start.getTime() - b.start.getTime());

  it('is off at first; turning it on answers a webcal address (128-bit token), and only the token’s hash is stored', async () => {
    const { pilot, feedCall, turnOn } = await newPilot();
    expect((await feedCall('GET')).json()).toEqual({ enabled: false });
    const url = await turnOn();
    const token = /\/api\/calendar\/([A-Za-z0-9_-]{22})\.ics$/.exec(url)?.[1];
    expect(Buffer.from(token!, 'base64url')).toHaveLength(16);
    expect((await feedCall('GET')).json()).toEqual({ enabled: true });
    const rows = await service.runtime.db('calendar_feeds').where({ pilot_id: pilot.id });
    expect(rows).toEqual([expect.objectContaining({ token_hash: hashToken(token!) })]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('is a valid iCalendar that node-ical reads: each upcoming trip with a stable UID, DTSTAMP, all-day dates, flights, route, duty text and swap state', async () => {
    const { pilot, post, turnOn, cookies } = await newPilot();
    const duty = 'VS3 LHR 1100 JFK 1400 351 [FO]; Crew: Amy, Bob — hotel “Marriott”\nRest 24h, then VS4 home';
    const plain = await post(tripBody({ flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK', startDate: '2026-11-10', endDate: '2026-11-12', icsDescription: duty }));
    const offered = await post(
      tripBody({ flightNoStart: 'VS025', flightNoEnd: 'VS026', route: 'BOS-JFK', startDate: '2026-11-20', endDate: '2026-11-21', isSwappable: true, swapDescription: 'Any east coast' }),
    );
    const kept = await post(tripBody({ flightNoStart: 'VS045', flightNoEnd: 'VS045', route: 'SFO', startDate: '2026-11-25', endDate: '2026-11-25', requested: true }));
    // Ended before today: not upcoming, so not in the feed.
    await service.repositories.trips.insertMany(pilot.id, [
      { ...plain, flightNoStart: 'VS009', flightNoEnd: 'VS010', startDate: '2026-10-28', endDate: '2026-10-31', icsDescription: null },
    ] as never);
    // Another pilot's trip never shows.
    const other = await newPilot();
    await other.post(tripBody({ flightNoStart: 'VS099', flightNoEnd: 'VS098', startDate: '2026-11-15', endDate: '2026-11-16' }));
    await other.turnOn();

    const response = await read(await turnOn());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const text = response.body;

    // RFC 5545 3.1: CRLF line ends, no line longer than 75 octets, long ones folded.
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text).toMatch(/\r\n [^\r\n]/);

    const parsed = events(text);
    const stored = (await (await service.app.inject({ method: 'GET', url: '/api/trips', cookies })).json()) as Trip[];
    // DTSTAMP is a UTC date-time to the second.
    const updatedAt = (id: string) => `${stored.find((trip) => trip.id === id)!.updatedAt.slice(0, 19)}.000Z`;
    expect(parsed.map((event) => event.uid)).toEqual([plain.id, offered.id, kept.id].map((id) => `${id}@crewswap`));
    expect(parsed.map((event) => [event.summary, dayOf(event.start), dayOf(event.end!), event.start.dateOnly, event.datetype])).toEqual([
      ['VS003/VS004 JFK', '2026-11-10', '2026-11-13', true, 'date'],
      ['Offered · VS025/VS026 BOS-JFK', '2026-11-20', '2026-11-22', true, 'date'],
      ['Kept · VS045 SFO', '2026-11-25', '2026-11-26', true, 'date'],
    ]);
    expect(parsed.map((event) => event.dtstamp.toISOString())).toEqual([plain.id, offered.id, kept.id].map(updatedAt));
    expect(parsed.map((event) => event.description)).toEqual([
      `Flights: VS003 out, VS004 back\nRoute: JFK\nAircraft: A350\nDuty: ${duty}`,
      'Flights: VS025 out, VS026 back\nRoute: BOS-JFK\nAircraft: A350\nSwap: Offered (Any east coast)',
      'Flights: VS045 out, VS045 back\nRoute: SFO\nAircraft: A350\nSwap: Kept',
    ]);
    expect(text).not.toContain('VS099');
    expect(text).not.toContain('VS009');
  });

  it('keeps each trip’s UID when the trip changes, so calendars update it; answers 304 to the ETag it holds and 200 once a trip changed', async () => {
    const { post, turnOn, cookies } = await newPilot();
    const trip = await post(tripBody({ startDate: '2026-11-10', endDate: '2026-11-12' }));
    const url = await turnOn();
    const first = await read(url);
    const etag = first.headers.etag as string;
    expect((await read(url, { 'if-none-match': etag })).statusCode).toBe(304);
    expect((await read(url, { 'if-none-match': etag })).body).toBe('');
    // The same trips give the same text (DTSTAMP is the trip's last change, not the time of asking).
    expect((await read(url)).body).toBe(first.body);

    await service.app.inject({ method: 'PATCH', url: `/api/trips/${trip.id}/swappable`, cookies, payload: { isSwappable: true } });
    const changed = await read(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const [before] = events(first.body);
    const [after] = events(changed.body);
    expect(after!.uid).toBe(before!.uid);
    expect([before!.summary, after!.summary]).toEqual(['VS003/VS004 JFK', 'Offered · VS003/VS004 JFK']);
    // Within one second DTSTAMP may stay the same: SEQUENCE (the trip's version) still moves on.
    expect(after!.dtstamp.getTime()).toBeGreaterThanOrEqual(before!.dtstamp.getTime());
    expect(Number(after!.sequence)).toBeGreaterThan(Number(before!.sequence));
  });

  it('leaves a trip out once it has ended (upcoming trips only)', async () => {
    const { post, turnOn } = await newPilot();
    await post(tripBody({ startDate: '2026-11-02', endDate: '2026-11-03' }));
    const url = await turnOn();
    const before = await read(url);
    expect(events(before.body)).toHaveLength(1);
    service.clock.set('2026-11-04T12:00:00Z');
    try {
      // A calendar holding the old version is sent the new one, not told it is current.
      const after = await read(url, { 'if-none-match': before.headers.etag as string });
      expect(after.statusCode).toBe(200);
      expect(events(after.body)).toHaveLength(0);
    } finally {
      service.clock.set('2026-11-01T12:00:00Z');
    }
  });

  it('Rotate: the old address stops at once and the new one answers; Turn off: the address answers 404', async () => {
    const { feedCall, turnOn } = await newPilot();
    const old = await turnOn();
    const rotated = await turnOn();
    expect(rotated).not.toBe(old);
    expect((await read(old)).statusCode).toBe(404);
    expect((await read(old)).json()).toEqual({ error: CALENDAR_FEED_MESSAGES.feedNotFound });
    expect((await read(rotated)).statusCode).toBe(200);
    expect((await feedCall('DELETE')).statusCode).toBe(204);
    expect((await read(rotated)).statusCode).toBe(404);
    expect((await feedCall('GET')).json()).toEqual({ enabled: false });
    // Turning off a feed that is off changes nothing.
    expect((await feedCall('DELETE')).statusCode).toBe(204);
  });

  it('needs no session to read, but a token that is not one answers 404 and a malformed one 400', async () => {
    const unknown = await service.app.inject({ method: 'GET', url: '/api/calendar/AAAAAAAAAAAAAAAAAAAAAA.ics' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: CALENDAR_FEED_MESSAGES.feedNotFound }]);
    const malformed = await service.app.inject({ method: 'GET', url: '/api/calendar/not-a-token.ics' });
    expect([malformed.statusCode, malformed.json().error]).toEqual([400, CALENDAR_FEED_MESSAGES.notAFeed]);
  });

  it('answers 503 with the shutdown sentence while an emergency shutdown lasts, and again after the resume', async () => {
    const { turnOn, feedCall } = await newPilot();
    const url = await turnOn();
    const announce = (subject: typeof SUBJECTS.systemShutdown | typeof SUBJECTS.systemResumed) =>
      service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, subject, { reason: subject === SUBJECTS.systemShutdown ? 'drill' : null }));
    await announce(SUBJECTS.systemShutdown);
    await eventually(async () => (await read(url)).statusCode === 503);
    expect((await read(url)).json()).toEqual({ error: SYSTEM_SHUTDOWN_MESSAGE, title: SYSTEM_SHUTDOWN_TITLE, systemShutdown: true });
    await announce(SUBJECTS.systemResumed);
    await eventually(async () => (await read(url)).statusCode === 200);
    expect((await feedCall('GET')).statusCode).toBe(200);
  });

  it('Rotate takes no body but {}: anything else is a 400 and the address keeps working', async () => {
    const { cookies, turnOn } = await newPilot();
    const url = await turnOn();
    for (const payload of ['not json', 'null', '{"rotate":true}']) {
      const response = await service.app.inject({ method: 'POST', url: '/api/calendar/feed', cookies, payload, headers: { 'content-type': 'application/json' } });
      expect(response.statusCode).toBe(400);
    }
    expect((await read(url)).statusCode).toBe(200);
  });

  it('a deleted pilot’s feed answers 404', async () => {
    const { pilot, post, turnOn } = await newPilot();
    await post(tripBody());
    const url = await turnOn();
    expect((await read(url)).statusCode).toBe(200);
    await service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, SUBJECTS.pilotDeleted, { pilotId: pilot.id, employeeId: pilot.employeeId }));
    await eventually(async () => (await read(url)).statusCode === 404, 5000);
    expect(await service.runtime.db('calendar_feeds').where({ pilot_id: pilot.id })).toEqual([]);
  });

  describe('authorization', () => {
    it('the feed’s settings answer 401 without a pilot session (an admin session is not one)', async () => {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        for (const cookies of [{}, adminCookie([], true)]) {
          const response = await service.app.inject({ method, url: '/api/calendar/feed', cookies });
          expect([method, response.statusCode]).toEqual([method, 401]);
        }
      }
    });

    it('a pilot’s Rotate and Turn off change only their own feed; each feed shows only its own pilot’s trips', async () => {
      const amy = await newPilot();
      const bob = await newPilot();
      await amy.post(tripBody({ flightNoStart: 'VS111', flightNoEnd: 'VS112' }));
      await bob.post(tripBody({ flightNoStart: 'VS221', flightNoEnd: 'VS222' }));
      const amyUrl = await amy.turnOn();
      const bobUrl = await bob.turnOn();
      await bob.turnOn();
      expect((await bob.feedCall('DELETE')).statusCode).toBe(204);
      const amyFeed = await read(amyUrl);
      expect(amyFeed.statusCode).toBe(200);
      expect(events(amyFeed.body).map((event) => event.summary)).toEqual(['VS111/VS112 JFK']);
      expect((await read(bobUrl)).statusCode).toBe(404);
      expect((await amy.feedCall('GET')).json()).toEqual({ enabled: true });
    });
  });
});
