import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { eventually } from '@crewswap/kit-testing';
import nodemailer from 'nodemailer';
import { selfSignedCertificate, type KeyPair } from '../src/smtp/certificate';
import { registerPilot, startTestStack, UPLOAD_EMAIL, type TestStack } from './helpers';

/** A certificate for localhost and 127.0.0.1, made for this test only, in `dir` as PEM files. */
function certificateFiles(dir: string): { keyFile: string; certFile: string } {
  const pair = selfSignedCertificate(['localhost', '127.0.0.1'], 1);
  writeFileSync(join(dir, 'key.pem'), pair.key);
  writeFileSync(join(dir, 'cert.pem'), pair.cert);
  return { keyFile: join(dir, 'key.pem'), certFile: join(dir, 'cert.pem') };
}

/**
 * A folder laid out as Kubernetes mounts a Secret: the files are links through `..data`, which a
 * renewal points at a new timestamped folder in one rename.
 */
function secretVolume(dir: string) {
  let version = 0;
  const write = (pair: KeyPair) => {
    const folder = `..v${++version}`;
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'tls.key'), pair.key);
    writeFileSync(join(dir, folder, 'tls.crt'), pair.cert);
    symlinkSync(folder, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    if (version > 1) rmSync(join(dir, `..v${version - 1}`), { recursive: true });
  };
  return {
    keyFile: join(dir, 'tls.key'),
    certFile: join(dir, 'tls.crt'),
    create(pair: KeyPair) {
      write(pair);
      symlinkSync('..data/tls.key', join(dir, 'tls.key'));
      symlinkSync('..data/tls.crt', join(dir, 'tls.crt'));
    },
    renew: write,
  };
}

describe('STARTTLS on the SMTP receiver', () => {
  let dir: string;
  let files: { keyFile: string; certFile: string };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'roster-smtp-tls-'));
    files = certificateFiles(dir);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  // From a registered pilot's address, which the test DNS lets 127.0.0.1 send for: the receiver takes it.
  const mail = { from: 'pilot@example-airline.test', to: UPLOAD_EMAIL, subject: 'roster', text: 'attached', attachments: [{ filename: 'roster.ics', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }] };
  const storedMails = (stack: TestStack) => stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count').then((rows) => Number(rows[0]!.count));

  describe('with SMTP_REQUIRE_TLS=true', () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await startTestStack({ config: { MAIL_WORKER_ENABLED: false, SMTP_TLS_KEY_FILE: files.keyFile, SMTP_TLS_CERT_FILE: files.certFile, SMTP_REQUIRE_TLS: true } });
      await registerPilot(stack, { email: mail.from });
    });
    afterAll(async () => {
      await stack.stop();
    });

    it('a client that upgrades with STARTTLS (and checks the certificate) delivers the mail', async () => {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, requireTLS: true, tls: { ca: [readFileSync(files.certFile)] } });
      const info = await transport.sendMail(mail);
      expect(info.accepted).toEqual([UPLOAD_EMAIL]);
      expect(await storedMails(stack)).toBe(1);
    });

    it('a client that stays in plain text is refused at MAIL FROM with a clear SMTP error, and nothing is stored', async () => {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, ignoreTLS: true });
      const error = await transport.sendMail(mail).catch((failure: { responseCode?: number; response?: string }) => failure);
      expect(error).toMatchObject({ responseCode: 530 });
      expect((error as { response: string }).response).toContain('STARTTLS');
      expect(await storedMails(stack)).toBe(1);
    });
  });

  describe('with a certificate but SMTP_REQUIRE_TLS unset', () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await startTestStack({ config: { MAIL_WORKER_ENABLED: false, SMTP_TLS_KEY_FILE: files.keyFile, SMTP_TLS_CERT_FILE: files.certFile } });
      await registerPilot(stack, { email: mail.from });
    });
    afterAll(async () => {
      await stack.stop();
    });

    it('STARTTLS is offered and plain text is still accepted', async () => {
      const tlsTransport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, requireTLS: true, tls: { ca: [readFileSync(files.certFile)] } });
      await tlsTransport.sendMail(mail);
      const plain = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, ignoreTLS: true });
      await plain.sendMail(mail);
      expect(await storedMails(stack)).toBe(2);
    });
  });

  it('STARTTLS is on by default: without certificate files it is offered with a self-signed certificate made at start', async () => {
    const stack = await startTestStack({ config: { MAIL_WORKER_ENABLED: false } });
    try {
      await registerPilot(stack, { email: mail.from });
      // A sending server that does not check certificates (most MX delivery) gets an encrypted channel.
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, requireTLS: true, tls: { rejectUnauthorized: false } });
      expect((await transport.sendMail(mail)).accepted).toEqual([UPLOAD_EMAIL]);
    } finally {
      await stack.stop();
    }
  });

  it('with SMTP_STARTTLS=false STARTTLS is not offered, so a client that requires TLS gives up', async () => {
    const stack = await startTestStack({ config: { MAIL_WORKER_ENABLED: false, SMTP_STARTTLS: false } });
    try {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, requireTLS: true });
      await expect(transport.sendMail(mail)).rejects.toThrow(/STARTTLS/);
    } finally {
      await stack.stop();
    }
  });

  it('a renewed certificate (the Secret volume swapped as Kubernetes does) is offered to the next STARTTLS connection, without a restart', async () => {
    const volume = secretVolume(mkdtempSync(join(dir, 'secret-')));
    const first = selfSignedCertificate(['localhost', '127.0.0.1'], 1);
    const renewed = selfSignedCertificate(['localhost', '127.0.0.1'], 90);
    volume.create(first);
    const stack = await startTestStack({ config: { MAIL_WORKER_ENABLED: false, SMTP_TLS_KEY_FILE: volume.keyFile, SMTP_TLS_CERT_FILE: volume.certFile, SMTP_REQUIRE_TLS: true } });
    // A client that trusts only the one certificate: its handshake succeeds only when that one is offered.
    const trusting = (pair: KeyPair) => nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, requireTLS: true, tls: { ca: [pair.cert] } });
    const connects = (pair: KeyPair) => trusting(pair).verify().then(() => true, () => false);
    try {
      expect(await connects(first)).toBe(true);
      expect(await connects(renewed)).toBe(false);

      volume.renew(renewed);
      await eventually(() => connects(renewed), 10_000);
      expect(await connects(first)).toBe(false);
    } finally {
      await stack.stop();
    }
  });
});

describe('the certificate the receiver makes for itself', () => {
  // Its serial is random: a first byte of 0 before one below 0x80 was invalid DER ('illegal padding')
  // and the receiver failed to start, one start in 256. A thousand starts would all but surely meet it.
  it('is valid DER every time', () => {
    for (let i = 0; i < 1000; i += 1) {
      const pair = selfSignedCertificate(['localhost'], 1);
      expect(() => createSecureContext({ key: pair.key, cert: pair.cert })).not.toThrow();
    }
  });
});
