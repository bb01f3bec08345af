import { ROSTER_MESSAGES } from '@crewswap/proto';
import pino from 'pino';
import { RosterError } from '../src/domain/calendar';
import { startParsePool } from '../src/parse/pool';
import { readFixture } from './fixtures';
import { multipart, pilotCookie, registerPilot, startTestStack, type TestStack } from './helpers';
import { hostileCalendar } from './hostile';

const TEN_MB = 10 * 1024 * 1024 - 4096;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('a huge calendar does not hold up roster-ingest for everyone', () => {
  let stack: TestStack;
  let hostilePilot: string;
  let pilots: string[];
  beforeAll(async () => {
    stack = await startTestStack({ config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false } });
    hostilePilot = (await registerPilot(stack, { base: 'LHR', fleet: 'A350' })).id;
    pilots = [];
    for (let i = 0; i < 8; i += 1) pilots.push((await registerPilot(stack, { base: 'LHR', fleet: 'A350' })).id);
  });
  afterAll(async () => {
    await stack.stop();
  });

  const upload = (pilotId: string, name: string, content: Buffer | string) => {
    const body = multipart(name, content);
    return stack.roster.app.inject({ method: 'POST', url: '/api/roster/upload', payload: body.payload, headers: body.headers, cookies: pilotCookie(pilotId) });
  };
  const timedRealUpload = async (pilotId: string) => {
    const started = performance.now();
    const response = await upload(pilotId, 'roster.ics', readFixture('roster-a-lhr-a350-cp.ics'));
    expect(response.statusCode).toBe(200);
    expect(response.json().processedCount).toBe(9);
    return performance.now() - started;
  };

  it(`a calendar of more than 2,000 events is refused before it is read, with a clear message`, async () => {
    const text = hostileCalendar({ bytes: TEN_MB });
    const response = await upload(hostilePilot, 'huge.ics', text);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: ROSTER_MESSAGES.TOO_MANY_EVENTS, message: ROSTER_MESSAGES.TOO_MANY_EVENTS });
    expect(await stack.trips.repositories.trips.listByPilot(hostilePilot)).toEqual([]);
  });

  it('during 10 MB hostile uploads, another pilot uploads a real roster in about its normal time and /healthz answers', async () => {
    // Under the event limit but as slow to parse as a 10 MB file can be made: long folded lines.
    const slow = hostileCalendar({ bytes: TEN_MB, events: 1990, padding: 5000 }).replace(/2026|2027|2028/g, '2020');
    const huge = hostileCalendar({ bytes: TEN_MB });
    // Warm up the path once, then the baseline: the same uploads with nothing else going on.
    await timedRealUpload(pilots[0]!);
    const baseline = median([await timedRealUpload(pilots[1]!), await timedRealUpload(pilots[2]!), await timedRealUpload(pilots[3]!)]);

    let hostileRunning = true;
    const hostile = (async () => {
      let rounds = 0;
      while (hostileRunning || rounds < 2) {
        const responses = await Promise.all([upload(hostilePilot, 'slow.ics', slow), upload(hostilePilot, 'huge.ics', huge)]);
        for (const response of responses) expect(response.statusCode).toBeLessThan(500);
        rounds += 1;
      }
      return rounds;
    })();
    // Let the hostile uploads reach the parser before measuring.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during: number[] = [];
    const health: number[] = [];
    for (const pilotId of pilots.slice(4, 8)) {
      const started = performance.now();
      expect((await stack.roster.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      health.push(performance.now() - started);
      during.push(await timedRealUpload(pilotId));
    }
    hostileRunning = false;
    expect(await hostile).toBeGreaterThanOrEqual(2);

    // Generous: a shared two-core machine; parsing on the event loop made this tens of times slower.
    expect(median(during)).toBeLessThan(Math.max(baseline, 20) * 8);
    expect(median(health)).toBeLessThan(Math.max(baseline, 20) * 8);
  }, 120_000);
});

describe('the parse pool', () => {
  const log = pino({ level: 'silent' });

  it('refuses a calendar that takes longer than its time limit, and the next file is read as usual', async () => {
    const pool = startParsePool({ size: 1, timeoutMs: 100, log });
    try {
      const slow = hostileCalendar({ bytes: TEN_MB, events: 1990, padding: 5000 });
      const refusal = await pool.parse(slow, 'LHR').catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(RosterError);
      expect((refusal as RosterError).message).toBe(ROSTER_MESSAGES.CALENDAR_TOO_COMPLEX);
      const roster = await pool.parse(readFixture('roster-a-lhr-a350-cp.ics').toString('utf8'), 'LHR');
      expect(roster.trips).toHaveLength(9);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("a parser's refusal comes back as the same RosterError", async () => {
    const pool = startParsePool({ size: 1, timeoutMs: 10_000, log });
    try {
      await expect(pool.parse('hello', 'LHR')).rejects.toMatchObject({ type: 'NOT_A_CALENDAR', message: ROSTER_MESSAGES.NOT_A_CALENDAR });
    } finally {
      await pool.close();
    }
  });
});
