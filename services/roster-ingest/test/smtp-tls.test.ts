import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { registerPilot, startTestStack, UPLOAD_EMAIL, type TestStack } from './helpers';

/** A self-signed certificate for localhost and 127.0.0.1, made for this test only. */
function selfSignedCertificate(dir: string): { keyFile: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  return { keyFile, certFile };
}

// The certificate is made with the openssl program; without it the file says so and tests nothing.
const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0;
if (!HAS_OPENSSL) console.warn('Skipped: the openssl program is needed to make the test certificate.');

(HAS_OPENSSL ? describe : describe.skip)('STARTTLS on the SMTP receiver', () => {
  let dir: string;
  let files: { keyFile: string; certFile: string };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'roster-smtp-tls-'));
    files = selfSignedCertificate(dir);
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

  it('without a certificate STARTTLS is not offered, so a client that requires TLS gives up', async () => {
    const stack = await startTestStack({ config: { MAIL_WORKER_ENABLED: false } });
    try {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, requireTLS: true });
      await expect(transport.sendMail(mail)).rejects.toThrow(/STARTTLS/);
    } finally {
      await stack.stop();
    }
  });
});
