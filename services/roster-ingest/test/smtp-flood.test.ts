import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { TEST_KEYS, eventually, freePort } from '@crewswap/kit-testing';
import nodemailer from 'nodemailer';
import { tooLarge } from '../src/smtp/receiver';
import { readFixture } from './fixtures';
import { privateUploadAddress, registerPilot, startTestStack, UPLOAD_EMAIL, type TestStack } from './helpers';

const IMOGEN = 'imogen.thistlewood@example-airline.test';
const ROOT = join(__dirname, '../../..');
const MB = 1024 * 1024;
/** What 20 oversized mails at once may add to the receiver's memory: a fraction of the 300 MB they carry. */
const MAX_GROWTH_MB = 150;

/** Resident memory of a process (VmRSS) or the most it has held since the last reset (VmHWM), in MB. */
const memoryOf = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))![1]) / 1024;

/** A mail of about `bytes` (headers and a base64-like body), as a sender's server would send it. */
function mailOf(bytes: number, to: string): Buffer {
  const line = `${'QUJD'.repeat(19)}\r\n`;
  return Buffer.from(`From: ${IMOGEN}\r\nTo: ${to}\r\nSubject: roster\r\nContent-Type: text/plain\r\n\r\n${line.repeat(Math.ceil(bytes / line.length))}`);
}

/** The first reply line of the SMTP server on this port to a client that just connects. */
function greeting(port: number): Promise<{ line: string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('data', (chunk) => resolve({ line: chunk.toString().split('\r\n')[0]!, closed }));
    socket.once('error', reject);
    sockets.push(socket);
  });
}
const sockets: ReturnType<typeof connect>[] = [];

/**
 * The receiver in a process of its own (so its memory is its own), as a deployment runs it with
 * the default limits: 20 senders each push a 15 MB mail at once while a pilot mails a roster.
 */
describe('the SMTP receiver under a flood of oversized mail', () => {
  let stack: TestStack;
  let child: ChildProcess;
  let smtpPort: number;
  const errors: string[] = [];

  beforeAll(async () => {
    // The in-process roster-ingest takes no mail; its worker imports what the child stores.
    stack = await startTestStack({ config: { SMTP_INGEST_ENABLED: false } });
    smtpPort = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: stack.databaseUrl,
      NATS_PREFIX: stack.config.NATS_PREFIX,
      NATS_URL: stack.config.NATS_URL,
      JWT_PUBLIC_KEY: TEST_KEYS.publicKey,
      JWT_PRIVATE_KEY: TEST_KEYS.privateKey,
      PORT: String(await freePort()),
      SMTP_INGEST_PORT: String(smtpPort),
      SMTP_INGEST_HOST: '127.0.0.1',
      MAIL_WORKER_ENABLED: 'false',
      // The shared address the private ones are made from (the child cannot ask admin for it).
      ROSTER_UPLOAD_EMAIL: UPLOAD_EMAIL,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
    child = spawn(process.execPath, ['--import', 'tsx', 'services/roster-ingest/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
    const probe = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
    await eventually(async () => probe.verify().catch(() => false), 90_000);
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    child?.kill('SIGKILL');
    if (errors.length) process.stderr.write(errors.join('').slice(-3000));
    await stack.stop();
  });

  it('20 connections each sending a 15 MB mail are each refused with 552 and the size sentence, memory stays within bounds, and a roster mailed meanwhile is imported', async () => {
    const pilot = await registerPilot(stack, { email: IMOGEN, base: 'LHR', fleet: 'A350' });
    // The pilot's private address: the child asks real DNS, which knows nothing of the test's domain.
    const address = await privateUploadAddress(stack, pilot.id);
    const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true, socketTimeout: 120_000 });
    const big = mailOf(15 * MB, address);

    // One mail first, so what a mail loads (mail authentication, the database's statements) is in the idle figure.
    await transport().sendMail({ envelope: { from: IMOGEN, to: [address] }, raw: readFixture('roster-a.eml') });
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      samples.push(memoryOf(child.pid!, 'VmRSS'));
    }
    const idle = samples.reduce((sum, value) => sum + value, 0) / samples.length;
    // Resets the child's peak resident memory (VmHWM) to what it holds now.
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');

    const floods = Array.from({ length: 20 }, () => transport().sendMail({ envelope: { from: IMOGEN, to: [address] }, raw: big }).then(() => 'accepted', (error: { responseCode?: number; response?: string }) => error));
    const roster = transport().sendMail({ envelope: { from: IMOGEN, to: [address] }, raw: readFixture('roster-a.eml') });

    expect((await roster).accepted).toEqual([address]);
    const refusals = await Promise.all(floods);
    const peak = memoryOf(child.pid!, 'VmHWM');
    for (const refusal of refusals) expect(refusal).toMatchObject({ responseCode: 552, response: expect.stringContaining(tooLarge(15 * MB)) });
    process.stdout.write(`receiver memory: ${idle.toFixed(0)} MB idle, ${peak.toFixed(0)} MB at most under the flood\n`);
    expect(peak - idle).toBeLessThan(MAX_GROWTH_MB);

    const trips = await eventually(async () => {
      const list = await stack.trips.repositories.trips.listByPilot(pilot.id);
      return list.length === 9 && list;
    }, 30_000);
    expect(trips).toHaveLength(9);
    // Only the two rosters were stored: nothing of the oversized mails.
    const [stored] = await stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count');
    expect(Number(stored!.count)).toBe(2);
  }, 180_000);
});

describe('SMTP_MAX_CLIENTS', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ config: { SMTP_MAX_CLIENTS: 2, MAIL_WORKER_ENABLED: false } });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await stack.stop();
  });

  it('a connection beyond the limit is answered 421 (try again later) and closed; once one leaves, the next is served', async () => {
    const port = stack.roster.smtpPort!;
    expect((await greeting(port)).line).toMatch(/^220 /);
    expect((await greeting(port)).line).toMatch(/^220 /);
    const third = await greeting(port);
    expect(third.line).toMatch(/^421 .*Too many connected clients, try again in a moment/);
    await third.closed;

    sockets.shift()!.destroy();
    await eventually(async () => /^220 /.test((await greeting(port)).line), 5_000);
  });
});
