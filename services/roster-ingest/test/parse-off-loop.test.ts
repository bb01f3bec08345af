import { HttpError } from '@crewswap/kit';
import { ROSTER_MESSAGES } from '@crewswap/proto';
import pino from 'pino';
import { RosterError } from '../src/domain/calendar';
import { OWNER_BUSY_MESSAGE, startParsePool, type ParsePool } from '../src/parse/pool';
import { readFixture } from './fixtures';
import { multipart, pilotCookie, registerPilot, startTestStack, type TestStack } from './helpers';
import { hostileCalendar, manyExceptionsCalendar, repeatingCalendar } from './hostile';

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

  it('a calendar with more than 2000 dates left out of a repeating event is refused with a clear message, and nothing is stored', async () => {
    const response = await upload(hostilePilot, 'exceptions.ics', manyExceptionsCalendar(2001));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: ROSTER_MESSAGES.TOO_MANY_RECURRENCE_DATES, message: ROSTER_MESSAGES.TOO_MANY_RECURRENCE_DATES });
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
  const ROSTER_A = readFixture('roster-a-lhr-a350-cp.ics').toString('utf8');
  const read = (pool: ParsePool, text: string, owner = 'pilot', waitForOwner = true) => pool.parse(text, { base: 'LHR', owner, waitForOwner });

  it('refuses a calendar that takes longer than its time limit, and the next file is read as usual', async () => {
    const pool = startParsePool({ size: 1, timeoutMs: 100, log });
    try {
      const slow = hostileCalendar({ bytes: TEN_MB, events: 1990, padding: 5000 });
      const refusal = await read(pool, slow).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(RosterError);
      expect((refusal as RosterError).message).toBe(ROSTER_MESSAGES.CALENDAR_TOO_COMPLEX);
      const roster = await read(pool, ROSTER_A);
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
      const parsed = read(pool, slow).finally(() => {
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
      // Each from another pilot: the limit on huge files, not the one on each pilot's, keeps a worker free.
      const hostile = [1, 2, 3].map((n) =>
        read(pool, slow, `sender ${n}`)
          .catch(() => undefined)
          .finally(() => settled.push(`huge ${n}`)),
      );
      const roster = await read(pool, ROSTER_A);
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
      await expect(read(pool, 'hello')).rejects.toMatchObject({ type: 'NOT_A_CALENDAR', message: ROSTER_MESSAGES.NOT_A_CALENDAR });
    } finally {
      await pool.close();
    }
  });

  it("however many small slow files one pilot sends at once, another pilot's roster finds a worker and is read before them", async () => {
    const pool = startParsePool({ size: 2, timeoutMs: 60_000, log });
    try {
      // Under the 512 KB of a huge file, so only the share each pilot may hold keeps a worker free.
      const slow = repeatingCalendar({ events: 1990, zoned: true });
      const settled: string[] = [];
      const hostile = Array.from({ length: 8 }, (_, n) =>
        read(pool, slow, 'hostile pilot')
          .catch(() => undefined)
          .finally(() => settled.push(`slow ${n + 1}`)),
      );
      const roster = await read(pool, ROSTER_A, 'another pilot');
      settled.push('roster');
      expect(roster.trips).toHaveLength(9);
      expect(settled).toEqual(['roster']);
      await Promise.all(hostile);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("a mailed roster does not wait behind its pilot's earlier file: it is refused with a 503 to be tried again, and other pilots' files are read", async () => {
    const pool = startParsePool({ size: 2, timeoutMs: 60_000, log });
    try {
      const first = read(pool, repeatingCalendar({ events: 1990, zoned: true }), 'mailing pilot', false);
      const refusal = await read(pool, ROSTER_A, 'mailing pilot', false).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(HttpError);
      expect(refusal).toMatchObject({ status: 503, message: OWNER_BUSY_MESSAGE });
      expect((await read(pool, ROSTER_A, 'another pilot', false)).trips).toHaveLength(9);
      await first;
      // Once the first is read, the same pilot's next mail is.
      expect((await read(pool, ROSTER_A, 'mailing pilot', false)).trips).toHaveLength(9);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
