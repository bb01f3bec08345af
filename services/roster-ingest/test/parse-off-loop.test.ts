import { ROSTER_MESSAGES } from '@crewswap/proto';
import pino from 'pino';
import { RosterError } from '../src/domain/calendar';
import { startParsePool } from '../src/parse/pool';
import { readFixture } from './fixtures';
import { multipart, pilotCookie, registerPilot, startTestStack, type TestStack } from './helpers';
import { hostileCalendar } from './hostile';

const TEN_MB = 10 * 1024 * 1024 - 4096;

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
  const realUpload = async (pilotId: string) => {
    const response = await upload(pilotId, 'roster.ics', readFixture('roster-a-lhr-a350-cp.ics'));
    expect(response.statusCode).toBe(200);
    expect(response.json().processedCount).toBe(9);
  };

  it(`a calendar of more than 2,000 events is refused before it is read, with a clear message`, async () => {
    const text = hostileCalendar({ bytes: TEN_MB });
    const response = await upload(hostilePilot, 'huge.ics', text);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: ROSTER_MESSAGES.TOO_MANY_EVENTS, message: ROSTER_MESSAGES.TOO_MANY_EVENTS });
    expect(await stack.trips.repositories.trips.listByPilot(hostilePilot)).toEqual([]);
  });

  it('during 10 MB hostile uploads, other pilots upload real rosters and /healthz answers', async () => {
    // Under the event limit but as slow to parse as a 10 MB file can be made: long folded lines.
    const slow = hostileCalendar({ bytes: TEN_MB, events: 1990, padding: 5000 }).replace(/2026|2027|2028/g, '2020');
    const huge = hostileCalendar({ bytes: TEN_MB });
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
    for (const pilotId of pilots) {
      expect((await stack.roster.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await realUpload(pilotId);
    }
    hostileRunning = false;
    expect(await hostile).toBeGreaterThanOrEqual(2);
    for (const pilotId of pilots) expect(await stack.trips.repositories.trips.listByPilot(pilotId)).toHaveLength(9);
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

  it('reads a file on a worker thread: the event loop keeps turning while a slow calendar is parsed', async () => {
    const pool = startParsePool({ size: 1, timeoutMs: 60_000, log });
    try {
      const slow = hostileCalendar({ bytes: TEN_MB, events: 1990, padding: 5000 }).replace(/2026|2027|2028/g, '2020');
      let parsing = true;
      let turns = 0;
      const parsed = pool.parse(slow, 'LHR').finally(() => {
        parsing = false;
      });
      // Parsing on this thread would let no turn through until the file is read.
      while (parsing) {
        await new Promise((resolve) => setImmediate(resolve));
        turns += 1;
      }
      await parsed.catch(() => undefined);
      expect(turns).toBeGreaterThan(20);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('however many huge files arrive at once, an ordinary roster finds a worker and is read before them', async () => {
    const pool = startParsePool({ size: 2, timeoutMs: 60_000, log });
    try {
      const slow = hostileCalendar({ bytes: TEN_MB, events: 1990, padding: 5000 }).replace(/2026|2027|2028/g, '2020');
      const settled: string[] = [];
      const hostile = [1, 2, 3].map((n) =>
        pool
          .parse(slow, 'LHR')
          .catch(() => undefined)
          .finally(() => settled.push(`huge ${n}`)),
      );
      const roster = await pool.parse(readFixture('roster-a-lhr-a350-cp.ics').toString('utf8'), 'LHR');
      settled.push('roster');
      expect(roster.trips).toHaveLength(9);
      // Read beside the first huge file, not queued behind them all.
      expect(settled).toEqual(['roster']);
      await Promise.all(hostile);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("a parser's refusal comes back as the same RosterError", async () => {
    const pool = startParsePool({ size: 1, timeoutMs: 10_000, log });
    try {
      await expect(pool.parse('hello', 'LHR')).rejects.toMatchObject({ type: 'NOT_A_CALENDAR', message: ROSTER_MESSAGES.NOT_A_CALENDAR });
    } finally {
      await pool.close();
    }
  });
});
