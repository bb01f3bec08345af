import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PILOT_COOKIE, signPilotToken, unavailable } from '@crewswap/kit';
import { TEST_KEYS, eventually, findPostgresBinaries, startThrowawayPostgres, freePort } from '@crewswap/kit-testing';
import { ROSTER_MESSAGES, SUBJECTS } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { createProcessMail } from '../src/domain/process-mail';
import { readFixture } from './fixtures';
import { multipart, pilotCookie, registerPilot, startTestStack, testDns, UPLOAD_EMAIL, type TestStack } from './helpers';

const ROOT = join(__dirname, '../../..');
const ROSTER_A = 'roster-a-lhr-a350-cp.ics';

const uploadTo = (stack: TestStack, pilotId: string) => {
  const body = multipart('roster.ics', readFixture(ROSTER_A));
  return stack.roster.app.inject({ method: 'POST', url: '/api/roster/upload', payload: body.payload, headers: body.headers, cookies: pilotCookie(pilotId) });
};

describe("an upload while trips' Postgres restarts", () => {
  it('answers 503 with Retry-After (never 500), stores nothing, and the same upload works once Postgres is back', async () => {
    const binaries = await findPostgresBinaries();
    if (!binaries) {
      console.warn('Skipped: no Postgres server programs (initdb, pg_ctl) found; install postgresql or set POSTGRES_BIN_DIR.');
      return;
    }
    const postgres = await startThrowawayPostgres(binaries);
    const stack = await startTestStack({ tripsDatabaseUrl: postgres.url, config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false } });
    try {
      const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'A350' });
      await postgres.stop();
      const during = await uploadTo(stack, pilot.id);
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBe('5');
      expect(during.json().error).toBe('The trips service is not available right now. Please try again shortly.');

      await postgres.start();
      const after = await eventually(async () => {
        const response = await uploadTo(stack, pilot.id);
        return response.statusCode === 200 && response;
      }, 30_000);
      expect(after.json()).toMatchObject({ processedCount: 9, duplicateCount: 0 });
      expect(await stack.trips.repositories.trips.listByPilot(pilot.id)).toHaveLength(9);
    } finally {
      await stack.stop();
      await postgres.destroy();
    }
  }, 120_000);
});

/**
 * roster-ingest as its own process, killed after trips stored the roster but before it answered:
 * the pilot's app is told nothing useful, so it (or the pilot) sends the same file again.
 */
describe('roster-ingest killed after trips stored an upload', () => {
  let stack: TestStack;
  let child: ChildProcess | undefined;
  const errors: string[] = [];
  beforeAll(async () => {
    stack = await startTestStack({ config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false } });
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    if (errors.length) process.stderr.write(errors.join('').slice(-3000));
    await stack.stop();
  });

  it("the retry reports 'Already imported' with what was stored, and nothing is stored twice", async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'A350' });
    // A login as auth announces it, on the stream before the child starts: its guard reads it while
    // catching up, so it knows the session without asking auth (not running here).
    const sessionId = crypto.randomUUID();
    const { db, outbox } = stack.trips.runtime;
    await db.transaction((trx) => outbox.write(trx, SUBJECTS.sessionStarted, { sessionId, pilotId: pilot.id }));
    await eventually(async () => (await db('outbox').where({ subject: SUBJECTS.sessionStarted }).whereNull('published_at')).length === 0);
    const port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: stack.databaseUrl,
      NATS_PREFIX: stack.config.NATS_PREFIX,
      NATS_URL: stack.config.NATS_URL,
      JWT_PUBLIC_KEY: TEST_KEYS.publicKey,
      JWT_PRIVATE_KEY: TEST_KEYS.privateKey,
      PORT: String(port),
      HOST: '127.0.0.1',
      SMTP_INGEST_ENABLED: 'false',
      MAIL_WORKER_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
    child = spawn(process.execPath, ['--import', 'tsx', 'services/roster-ingest/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok, 90_000);
    await eventually(async () => (await stack.roster.repositories.pilots.find(pilot.id)) !== undefined);

    // The history record waits behind this lock, so the process stops between trips' commit and its answer.
    const hold = await stack.roster.runtime.db.transaction();
    await hold.raw('LOCK TABLE roster_history IN SHARE MODE');
    let firstAnswer: unknown;
    try {
      const form = new FormData();
      form.append('roster', new Blob([readFixture(ROSTER_A)], { type: 'text/calendar' }), 'roster.ics');
      const cookie = `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey, { sessionId, pilotId: pilot.id })}`;
      const first = fetch(`http://127.0.0.1:${port}/api/roster/upload`, { method: 'POST', body: form, headers: { cookie, origin: `http://127.0.0.1:${port}` } }).then(
        (response) => response.status,
        (error: unknown) => error,
      );
      await eventually(async () => (await stack.trips.repositories.trips.listByPilot(pilot.id)).length === 9, 30_000);
      child.kill('SIGKILL');
      firstAnswer = await first;
    } finally {
      await hold.rollback();
    }
    // The connection dropped: the app had no answer, or an error, never the counts.
    expect(typeof firstAnswer).not.toBe('number');

    const retry = await uploadTo(stack, pilot.id);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ processedCount: 0, duplicateCount: 9, conflictCount: 0, message: 'Already imported: 0 trips added, 9 duplicates skipped' });
    expect(await stack.trips.repositories.trips.listByPilot(pilot.id)).toHaveLength(9);
  }, 180_000);
});

describe('an emailed roster that can never be imported', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack.stop();
  });

  const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, ignoreTLS: true });
  const repliesTo = async (to: string) =>
    ((await stack.roster.runtime.db('outbox').where({ subject: SUBJECTS.sendMail }).orderBy('seq')) as { envelope: { data: { to: string; text: string } } }[])
      .map((row) => row.envelope.data)
      .filter((mail) => mail.to === to);

  it.each([
    ['1,000', 1000, 'too.many.parts@example-airline.test'],
    ['50', 50, 'many.attachments@example-airline.test'],
  ])('a mail with %s attachments is recorded as failed and answered on its first delivery, not retried', async (_, count, email) => {
    await registerPilot(stack, { email });
    const calendar = readFixture(ROSTER_A);
    await transport().sendMail({
      from: email,
      to: UPLOAD_EMAIL,
      subject: 'rosters',
      text: 'all of them',
      attachments: Array.from({ length: count }, (_, i) => ({ filename: `roster-${i}.ics`, content: i < 3 ? calendar : 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' })),
    });
    const [record] = await eventually(async () => {
      const rows = await stack.roster.runtime.db('roster_history').where({ sender_email: email });
      return rows.length === 1 && rows;
    }, 20_000);
    expect(record).toMatchObject({ success: false, error_type: 'TOO_MANY_ATTACHMENTS', error_message: ROSTER_MESSAGES.TOO_MANY_ATTACHMENTS });
    expect((await repliesTo(email)).map((mail) => mail.text.includes(ROSTER_MESSAGES.TOO_MANY_ATTACHMENTS))).toEqual([true]);
    const info = await stack.roster.runtime.bus.jsm.consumers.info(stack.roster.runtime.bus.stream('ROSTER_MAIL'), 'roster_mail_worker');
    expect(info.num_redelivered).toBe(0);
    expect(await stack.roster.runtime.db('dead_letters')).toEqual([]);
  });

  describe('a failure the mail itself causes, against one that passes', () => {
    const log = pino({ level: 'silent' });
    const storeMail = async (from: string) => {
      await registerPilot(stack, { email: from });
      const { repositories, runtime } = stack.roster;
      const raw = Buffer.from(readFixture('roster-a.eml').toString('utf8').replaceAll('imogen.thistlewood@example-airline.test', from));
      const id = crypto.randomUUID();
      await repositories.mails.insert({ id, mailFrom: from, helo: 'mail.example-airline.test', rcptTo: [UPLOAD_EMAIL], remoteAddress: '127.0.0.1', sizeBytes: raw.length, raw }, runtime.db);
      return id;
    };
    const processMailWith = (prepare: () => Promise<never>) => {
      const { repositories, useCases, runtime } = stack.roster;
      const processMail = createProcessMail({ db: runtime.db, ...repositories, importRoster: { ...useCases.importRoster, prepare }, log, uploadAddresses: async () => [UPLOAD_EMAIL], resolver: testDns() });
      // What the mail worker does with one mail: prepare, then record in a transaction.
      return async (mailId: string) => {
        const plan = await processMail.prepare(mailId);
        await runtime.db.transaction((trx) => processMail.apply(mailId, plan, trx));
      };
    };

    it('an error that would recur every time is recorded as failed and answered at once', async () => {
      const from = 'breaks.the.parser@example-airline.test';
      const mailId = await storeMail(from);
      const processMail = processMailWith(async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'trips')");
      });
      await processMail(mailId);
      const rows = await stack.roster.runtime.db('roster_history').where({ mail_id: mailId });
      expect(rows).toEqual([expect.objectContaining({ success: false, error_type: 'UNREADABLE_EMAIL', error_message: ROSTER_MESSAGES.UNREADABLE_EMAIL })]);
      expect((await repliesTo(from)).map((mail) => mail.text.includes(ROSTER_MESSAGES.UNREADABLE_EMAIL))).toEqual([true]);
    });

    it('trips being away is temporary: the mail is left to be tried again and nothing is recorded', async () => {
      const from = 'trips.away@example-airline.test';
      const mailId = await storeMail(from);
      const processMail = processMailWith(async () => {
        throw unavailable('The trips service is not available right now. Please try again shortly.');
      });
      await expect(processMail(mailId)).rejects.toMatchObject({ status: 503 });
      expect(await stack.roster.runtime.db('roster_history').where({ mail_id: mailId })).toEqual([]);
      expect(await repliesTo(from)).toEqual([]);
    });
  });
});
