import { SETTING_DEFAULTS, SUBJECTS } from '@crewswap/proto';
import { eventually } from '@crewswap/kit-testing';
import { createMailLog } from '../src/data/mail-log';
import { emlFileName } from '../src/domain/mailer';
import { headersOf, startNotifications, type TestNotifications } from './helpers';
import { startSmtpSink } from './support/smtp-sink';

const settle = (ms = 700) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mail without SMTP_URL: .eml files in the outbox folder', () => {
  let service: TestNotifications;

  beforeAll(async () => {
    service = await startNotifications();
  });
  afterAll(async () => {
    await service.stop();
  });

  it('writes a mail command from another service as exactly one .eml file with the right To, From, Subject and body, even when redelivered', async () => {
    const envelope = await service.requestMail({
      to: 'amy.stone@fly.virgin.com',
      subject: 'Your temporary password',
      text: 'Hello Amy,\r\nyour temporary password is 4f9a-k2.\r\n',
    });
    const [name] = await eventually(async () => {
      const files = await service.emlFiles();
      return files.length === 1 ? files : undefined;
    });
    expect(name).toBe(`20261123T101500123Z-${envelope.id}-amy.stone@fly.virgin.com.eml`);

    const eml = await service.readEml(name!);
    const headers = headersOf(eml);
    expect(headers.to).toBe('amy.stone@fly.virgin.com');
    expect(headers.from).toBe('CrewSwap <noreply@crewswap.local>');
    expect(headers.subject).toBe('Your temporary password');
    expect(headers['x-crewswap-event-id']).toBe(envelope.id);
    expect(headers.date).toBe('Mon, 23 Nov 2026 10:15:00 +0000');
    expect(headers['message-id']).toMatch(/^<.+@.+>$/);
    expect(eml.slice(eml.indexOf('\r\n\r\n') + 4)).toBe('Hello Amy,\r\nyour temporary password is 4f9a-k2.\r\n');

    // The same event again under its own id (JetStream drops it) and under a new id (the consumer drops it).
    const bus = service.sender.bus;
    await bus.js.publish(bus.subject(SUBJECTS.sendMail), JSON.stringify(envelope), { msgID: envelope.id });
    await bus.js.publish(bus.subject(SUBJECTS.sendMail), JSON.stringify(envelope));
    await settle();
    expect(await service.emlFiles()).toEqual([name]);
    const log = await createMailLog(service.runtime.db).forEvent(envelope.id);
    expect(log).toEqual([
      expect.objectContaining({ to: 'amy.stone@fly.virgin.com', subject: 'Your temporary password', transport: 'file', status: 'sent' }),
    ]);
    expect(log[0]!.detail).toBe(`${service.outboxDir}/${name}`);
  });

  it("sends from the admin's Outgoing Email Address (outgoing_email), and from MAIL_FROM while it is empty", async () => {
    service.settings.outgoing_email = 'crew-desk@crewswap.test';
    const set = await service.requestMail({ to: 'set@fly.virgin.com', subject: 'From the setting', text: 'Hello.' });
    const file = await eventually(async () => (await service.emlFiles()).find((name) => name.includes(set.id)));
    expect(headersOf(await service.readEml(file)).from).toBe('CrewSwap <crew-desk@crewswap.test>');

    service.settings.outgoing_email = '';
    const empty = await service.requestMail({ to: 'empty@fly.virgin.com', subject: 'From MAIL_FROM', text: 'Hello.' });
    const fallback = await eventually(async () => (await service.emlFiles()).find((name) => name.includes(empty.id)));
    expect(headersOf(await service.readEml(fallback)).from).toBe(service.config.MAIL_FROM);
    service.settings.outgoing_email = SETTING_DEFAULTS.outgoing_email;
  });

  it('writes an html mail as multipart/alternative with both parts', async () => {
    service.clock.set('2026-11-23T11:00:00Z');
    const envelope = await service.requestMail({ to: 'fo@fly.virgin.com', subject: 'Swap alert', text: 'A trip was offered.', html: '<p>A trip was <b>offered</b>.</p>' });
    const file = await eventually(async () => (await service.emlFiles()).find((name) => name.includes(envelope.id)));
    const eml = await service.readEml(file);
    expect(headersOf(eml)['content-type']).toMatch(/^multipart\/alternative; boundary=/);
    expect(eml).toContain('Content-Type: text/plain');
    expect(eml).toContain('A trip was offered.');
    expect(eml).toContain('Content-Type: text/html');
    expect(eml).toContain('<p>A trip was <b>offered</b>.</p>');
  });

  it('names files so that they sort in the order the mails were sent', async () => {
    const ids: string[] = [];
    for (const minute of ['12:00', '12:01', '12:02']) {
      service.clock.set(`2026-11-23T${minute}:00Z`);
      const envelope = await service.requestMail({ to: 'order@fly.virgin.com', subject: `At ${minute}`, text: minute });
      ids.push(envelope.id);
      await eventually(async () => (await service.emlFiles()).some((name) => name.includes(envelope.id)));
    }
    const files = (await service.emlFiles()).filter((name) => name.endsWith('order@fly.virgin.com.eml'));
    expect(files.map((name) => ids.findIndex((id) => name.includes(id)))).toEqual([0, 1, 2]);
  });

  it('drops a command that does not match its schema and goes on with the next', async () => {
    const bus = service.sender.bus;
    const bad = { id: '00000000-0000-4000-8000-000000000001', type: SUBJECTS.sendMail, occurredAt: new Date().toISOString(), version: 1, data: { to: 'not an address', subject: '' } };
    await bus.js.publish(bus.subject(SUBJECTS.sendMail), JSON.stringify(bad));
    await bus.js.publish(bus.subject(SUBJECTS.sendMail), 'not json');
    const envelope = await service.requestMail({ to: 'next@fly.virgin.com', subject: 'Next', text: 'still working' });
    await eventually(async () => (await service.emlFiles()).some((name) => name.includes(envelope.id)));
    expect((await service.emlFiles()).some((name) => name.includes(bad.id))).toBe(false);
  });

  it('keeps recipients that are odd but valid addresses safe in file names', () => {
    expect(emlFileName(new Date('2026-11-23T10:15:00.123Z'), 'id', "o'brien/../x@fly.virgin.com")).toBe(
      "20261123T101500123Z-id-o_brien_.._x@fly.virgin.com.eml",
    );
  });

  it('serves /healthz, /readyz and /metrics beside its pilot routes, which need a session', async () => {
    expect((await service.app.inject('/healthz')).statusCode).toBe(200);
    expect((await service.app.inject('/readyz')).json()).toEqual({ status: 'ready', checks: { database: true, nats: true, revocations: true, sessions: true } });
    expect((await service.app.inject('/metrics')).body).toContain('http_request_duration_seconds');
    expect((await service.app.inject('/api/notifications/preferences')).statusCode).toBe(401);
    expect((await service.app.inject('/api/notifications/nothing-here')).statusCode).toBe(404);
  });
});

describe('mail with SMTP_URL', () => {
  it('delivers to the SMTP server from MAIL_FROM (outgoing_email empty) and writes no file', async () => {
    const sink = await startSmtpSink();
    const service = await startNotifications({ SMTP_URL: sink.url, MAIL_FROM: 'CrewSwap <mail@crewswap.test>' });
    service.settings.outgoing_email = '';
    try {
      const envelope = await service.requestMail({ to: 'cp@fly.virgin.com', subject: 'Verify your email', text: 'Your code is 123456.' });
      const [mail] = await eventually(() => (sink.received.length > 0 ? sink.received : undefined));
      expect(mail).toMatchObject({ from: 'mail@crewswap.test', to: ['cp@fly.virgin.com'] });
      const headers = headersOf(mail!.data);
      expect(headers).toMatchObject({ from: 'CrewSwap <mail@crewswap.test>', to: 'cp@fly.virgin.com', subject: 'Verify your email' });
      expect(mail!.data).toContain('Your code is 123456.');
      await eventually(async () => (await createMailLog(service.runtime.db).forEvent(envelope.id)).length === 1);
      expect((await createMailLog(service.runtime.db).forEvent(envelope.id))[0]).toMatchObject({ transport: 'smtp', status: 'sent' });
      expect(await service.emlFiles()).toEqual([]);
    } finally {
      await service.stop();
      await sink.close();
    }
  });

  it('retries a failed send (the command is not lost) and delivers it once', async () => {
    const sink = await startSmtpSink({ failFirst: 1 });
    const service = await startNotifications({ SMTP_URL: sink.url });
    try {
      const envelope = await service.requestMail({ to: 'retry@fly.virgin.com', subject: 'Try again', text: 'second time lucky' });
      await eventually(() => sink.received.length === 1, 8000);
      await settle();
      expect(sink.received).toHaveLength(1);
      const log = await createMailLog(service.runtime.db).forEvent(envelope.id);
      expect(log.map((entry) => entry.status)).toEqual(['failed', 'sent']);
      expect(log[0]!.detail).toContain('try again later');
    } finally {
      await service.stop();
      await sink.close();
    }
  });

  it('logs a recipient the server refuses for good as rejected and does not retry it', async () => {
    const sink = await startSmtpSink({ rejects: (address) => address.startsWith('gone') });
    const service = await startNotifications({ SMTP_URL: sink.url });
    try {
      const refused = await service.requestMail({ to: 'gone@fly.virgin.com', subject: 'Nobody home', text: '...' });
      const next = await service.requestMail({ to: 'here@fly.virgin.com', subject: 'Somebody home', text: 'hello' });
      await eventually(() => sink.received.length === 1);
      await settle(2500);
      expect(sink.received.map((mail) => mail.to)).toEqual([['here@fly.virgin.com']]);
      const log = await createMailLog(service.runtime.db).forEvent(refused.id);
      expect(log.map((entry) => entry.status)).toEqual(['rejected']);
      expect((await createMailLog(service.runtime.db).forEvent(next.id)).map((entry) => entry.status)).toEqual(['sent']);
    } finally {
      await service.stop();
      await sink.close();
    }
  });
});
