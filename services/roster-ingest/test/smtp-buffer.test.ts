/**
 * SMTP_BUFFER_BYTES (issue 54): the memory held of mails still arriving, all connections
 * together. Mails of a legal size that arrive at once past it are let go, the largest first, and
 * answered 452 with the sentence that tells the sender's server to try again; none of them is
 * stored. Once they are gone, the next mail is taken as usual.
 */
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { BUSY } from '../src/smtp/receiver';
import { privateUploadAddress, registerPilot, startTestStack, type TestStack } from './helpers';

const IMOGEN = 'imogen.thistlewood@example-airline.test';
const KB = 1024;
/** Each mail (about 300 KB) is under the size limit; two fill the buffer, four at once cannot fit. */
const MAIL_BYTES = 300 * KB;
const BUFFER_BYTES = 600 * KB;

/** One SMTP session driven by hand, so the test decides when each part of a mail is sent. */
class Session {
  private buffered = '';
  private waiting: ((line: string) => void) | undefined;
  private readonly lines: string[] = [];
  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.buffered += text;
      let end: number;
      while ((end = this.buffered.indexOf('\r\n')) >= 0) {
        const line = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 2);
        // A multi-line reply ("250-...") is complete at its last line ("250 ...").
        if (/^\d{3}-/.test(line)) continue;
        if (this.waiting) {
          const waiting = this.waiting;
          this.waiting = undefined;
          waiting(line);
        } else this.lines.push(line);
      }
    });
  }

  static async open(port: number): Promise<Session> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const session = new Session(socket);
    expect(await session.reply()).toMatch(/^220 /);
    return session;
  }

  /** The next complete reply (its last line). */
  reply(): Promise<string> {
    const ready = this.lines.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  async command(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  /** Up to DATA's 354: the envelope of a mail from `from` to `to`. */
  async startMail(from: string, to: string): Promise<void> {
    expect(await this.command('EHLO sender.example-airline.test')).toMatch(/^250 /);
    expect(await this.command(`MAIL FROM:<${from}>`)).toMatch(/^250 /);
    expect(await this.command(`RCPT TO:<${to}>`)).toMatch(/^250 /);
    expect(await this.command('DATA')).toMatch(/^354 /);
  }

  send(data: string): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /** Ends the mail's data; the server's answer to it. */
  async finish(): Promise<string> {
    await this.send('.\r\n');
    return this.reply();
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A mail of MAIL_BYTES whose subject names it, to be found among the stored ones. */
function mailText(name: string, to: string): string {
  const line = `${'QUJD'.repeat(19)}\r\n`;
  return `From: ${IMOGEN}\r\nTo: ${to}\r\nSubject: ${name}\r\nContent-Type: text/plain\r\n\r\n${line.repeat(Math.ceil(MAIL_BYTES / line.length))}`;
}

describe('SMTP_BUFFER_BYTES: mail arriving at once past the shared buffer', () => {
  let stack: TestStack;
  const sessions: Session[] = [];
  const lines: { msg?: string; sizeBytes?: number; heldBytes?: number }[] = [];

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach((line) => lines.push(JSON.parse(line))));
    stack = await startTestStack({
      config: { SMTP_BUFFER_BYTES: BUFFER_BYTES, SMTP_MAX_MESSAGE_BYTES: 400 * KB, MAIL_WORKER_ENABLED: false },
      log: pino({ level: 'info' }, stream),
    });
  });
  afterAll(async () => {
    for (const session of sessions) session.close();
    await stack.stop();
  });

  const storedSubjects = async () =>
    ((await stack.roster.runtime.db('inbound_mail').select('raw')) as { raw: Buffer }[]).map((row) => /^Subject: (.*)$/m.exec(row.raw.toString('utf8'))![1]!.trim()).sort();

  it('four mails of a legal size at once: those past the buffer are answered 452 with its sentence and not stored; a mail after them is taken', async () => {
    const pilot = await registerPilot(stack, { email: IMOGEN, base: 'LHR', fleet: 'A350' });
    const address = await privateUploadAddress(stack, pilot.id);
    const port = stack.roster.smtpPort!;

    const names = ['flood-1', 'flood-2', 'flood-3', 'flood-4'];
    const flood = await Promise.all(names.map(() => Session.open(port)));
    sessions.push(...flood);
    for (const session of flood) await session.startMail(IMOGEN, address);
    // Every mail's whole text first (1.2 MB in transit, twice the buffer), the ends only once the
    // receiver has read it all: no mail is complete, so none can be answered and free its room early.
    await Promise.all(flood.map((session, index) => session.send(mailText(names[index]!, address))));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const answers = await Promise.all(flood.map((session) => session.finish()));

    const busy = answers.filter((answer) => answer.startsWith('452 '));
    const taken = names.filter((_, index) => answers[index]!.startsWith('250 '));
    // At most two whole mails fit the buffer, so at least two are let go; nothing else is answered.
    expect(busy.length).toBeGreaterThanOrEqual(2);
    expect(busy.length + taken.length).toBe(names.length);
    for (const answer of busy) expect(answer).toBe(`452 ${BUSY}`);
    expect(lines.filter((line) => line.msg?.startsWith('too much mail arriving at once'))).toHaveLength(busy.length);
    for (const line of lines.filter((entry) => entry.msg?.startsWith('too much mail arriving at once'))) expect(line.heldBytes).toBeLessThanOrEqual(BUFFER_BYTES);
    // Only the mails answered 250 were stored.
    expect(await storedSubjects()).toEqual(taken.sort());

    // They are done: the next mail is taken and stored.
    const after = await Session.open(port);
    sessions.push(after);
    await after.startMail(IMOGEN, address);
    await after.send(mailText('after-the-flood', address));
    expect(await after.finish()).toMatch(/^250 .*Queued as /);
    expect(await storedSubjects()).toEqual([...taken, 'after-the-flood'].sort());
  });
});
