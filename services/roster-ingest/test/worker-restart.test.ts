import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TEST_KEYS, eventually, freePort } from '@crewswap/kit-testing';
import { SUBJECTS } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import { readFixture } from './fixtures';
import { privateUploadAddress, registerPilot, startTestStack, type TestStack } from './helpers';

const IMOGEN = 'imogen.thistlewood@example-airline.test';
const FALLBACK_ADDRESS = 'roster-upload@example-airline.test';
const ROOT = join(__dirname, '../../..');

/**
 * roster-ingest as its own process (receiver and worker), killed with SIGKILL mid-import and
 * started again: the mail is stored before it is acknowledged, so it is processed once.
 */
describe('emailed roster survives a worker killed mid-import', () => {
  let stack: TestStack;
  let child: ChildProcess | undefined;
  let env: NodeJS.ProcessEnv;
  let smtpPort: number;
  const errors: string[] = [];

  beforeAll(async () => {
    // The in-process roster-ingest of the stack takes no mail: the child processes do.
    stack = await startTestStack({ config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false } });
    smtpPort = await freePort();
    env = {
      ...process.env,
      DATABASE_URL: stack.databaseUrl,
      NATS_PREFIX: stack.config.NATS_PREFIX,
      NATS_URL: stack.config.NATS_URL,
      JWT_PUBLIC_KEY: TEST_KEYS.publicKey,
      JWT_PRIVATE_KEY: TEST_KEYS.privateKey,
      PORT: String(await freePort()),
      SMTP_INGEST_PORT: String(smtpPort),
      SMTP_INGEST_HOST: '127.0.0.1',
      MAIL_ACK_WAIT_MS: '1500',
      ROSTER_UPLOAD_EMAIL: FALLBACK_ADDRESS,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    if (errors.length) process.stderr.write(errors.join('').slice(-3000));
    await stack.stop();
  });

  const startChild = async () => {
    // node itself (not the tsx wrapper, which forks), so SIGKILL ends the process that holds the work.
    child = spawn(process.execPath, ['--import', 'tsx', 'services/roster-ingest/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
    await eventually(async () => transport.verify().catch(() => false), 90_000);
    return transport;
  };
  const sql = (query: string, bindings: unknown[] = []) => stack.roster.runtime.db.raw(query, bindings as never[]).then((result: { rows: Record<string, unknown>[] }) => result.rows);

  it('the mail is imported once after the worker restarts', async () => {
    const pilot = await registerPilot(stack, { email: IMOGEN, base: 'LHR', fleet: 'A350' });
    const transport = await startChild();
    await eventually(async () => (await sql('SELECT 1 FROM roster_ingest.pilots WHERE id = ?', [pilot.id])).length === 1, 15_000);

    // Trips goes away, so the worker takes the mail and cannot finish its import.
    await stack.trips.close();
    // The pilot's private address: the child process asks real DNS, which knows nothing of the test's domain.
    const address = await privateUploadAddress(stack, pilot.id);
    await transport.sendMail({ envelope: { from: IMOGEN, to: [address] }, raw: readFixture('roster-a.eml') });
    const [mail] = await eventually(async () => {
      const rows = await sql('SELECT id FROM roster_ingest.inbound_mail');
      return rows.length === 1 && rows;
    });
    // The mail id is on the stream and the worker has tried it at least once.
    await eventually(async () => {
      const info = await stack.roster.runtime.bus.jsm.consumers.info(stack.roster.runtime.bus.stream('ROSTER_MAIL'), 'roster_mail_worker').catch(() => undefined);
      return Boolean(info && info.delivered.stream_seq >= 1);
    }, 15_000);
    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    expect(await sql('SELECT 1 FROM roster_ingest.roster_history')).toEqual([]);

    stack.trips = await stack.startTrips();
    await startChild();
    await eventually(async () => (await sql('SELECT 1 FROM roster_ingest.roster_history')).length === 1, 30_000);

    expect(await stack.trips.repositories.trips.listByPilot(pilot.id)).toHaveLength(9);
    const [record] = await sql('SELECT success, trips_added, mail_id FROM roster_ingest.roster_history');
    expect(record).toEqual({ success: true, trips_added: 9, mail_id: mail!.id });
    const replies = (await sql('SELECT envelope FROM roster_ingest.outbox WHERE subject = ?', [SUBJECTS.sendMail])) as { envelope: { data: { to: string; text: string } } }[];
    expect(replies.map((row) => row.envelope.data.to)).toEqual([IMOGEN]);
    expect(replies[0]!.envelope.data.text).toContain('9 trips added.');
    // A while later still once: a late redelivery of the same id changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await sql('SELECT 1 FROM roster_ingest.roster_history')).toHaveLength(1);
  }, 300_000);

  it('a worker killed after trips stored the roster but before its history record commits: the mail is processed once after restart', async () => {
    const email = 'quentin.marlowe@example-airline.test';
    const pilot = await registerPilot(stack, { email, base: 'LHR', fleet: 'A350' });
    // The previous test's process is still running: this test starts its own.
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    const transport = await startChild();
    await eventually(async () => (await sql('SELECT 1 FROM roster_ingest.pilots WHERE id = ?', [pilot.id])).length === 1, 15_000);

    // Writing the history record waits behind this lock (reads go on), so the worker stops
    // exactly between the trips being stored (trips' own commit) and its own commit.
    const hold = await stack.roster.runtime.db.transaction();
    await hold.raw('LOCK TABLE roster_ingest.roster_history IN SHARE MODE');
    try {
      await transport.sendMail({ envelope: { from: email, to: [await privateUploadAddress(stack, pilot.id)] }, raw: readFixture('roster-a.eml').toString('utf8').replaceAll(IMOGEN, email) });
      await eventually(async () => (await stack.trips.repositories.trips.listByPilot(pilot.id)).length === 9, 30_000);
      child!.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
    } finally {
      await hold.rollback();
    }
    const [mail] = await sql('SELECT id FROM roster_ingest.inbound_mail WHERE mail_from = ?', [email]);
    const recordsOf = () => sql('SELECT success, trips_added, duplicate_events FROM roster_ingest.roster_history WHERE mail_id = ?', [mail!.id]);
    expect(await recordsOf()).toEqual([]);

    await startChild();
    await eventually(async () => (await recordsOf()).length === 1, 30_000);
    // Trips answers the repeated import with the reply it stored: 9 added, not 9 duplicates.
    expect(await recordsOf()).toEqual([{ success: true, trips_added: 9, duplicate_events: 0 }]);
    expect(await stack.trips.repositories.trips.listByPilot(pilot.id)).toHaveLength(9);
    const replies = (await sql('SELECT envelope FROM roster_ingest.outbox WHERE subject = ?', [SUBJECTS.sendMail])) as { envelope: { data: { to: string; text: string } } }[];
    expect(replies.filter((row) => row.envelope.data.to === email).map((row) => row.envelope.data.text.includes('9 trips added.'))).toEqual([true]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await recordsOf()).toHaveLength(1);
  }, 300_000);
});
