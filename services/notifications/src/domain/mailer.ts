import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock, Logger } from '@crewswap/kit';
import nodemailer from 'nodemailer';
import type { MailTransportName } from '../data/mail-log';

export interface OutgoingMail {
  /** The command's event id; it names the .eml file and travels as a header for tracing. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** One-click unsubscribe (RFC 8058): List-Unsubscribe and List-Unsubscribe-Post. */
  listUnsubscribe?: string;
}

export interface Mailer {
  transport: MailTransportName;
  /** Sends the mail; answers what to log (the SMTP message id or the file written). */
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

/** A From header: a plain string, or a display name with an address. */
export type MailFrom = string | { name: string; address: string };

export interface MailerOptions {
  smtpUrl: string | undefined;
  /** Read for every mail: the admin's outgoing_email may change at any time. */
  from: () => Promise<MailFrom>;
  outboxDir: string;
  clock: Clock;
  log: Logger;
}

// Well under the consumer's 30 s ack wait, so a hung server fails the attempt before the
// message is handed out again.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** SMTP where SMTP_URL is set; otherwise each mail becomes a real RFC 822 .eml file on disk. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options, options.smtpUrl) : fileMailer(options);
}

async function message(options: MailerOptions, mail: OutgoingMail) {
  return {
    from: await options.from(),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    date: options.clock.now(),
    headers: {
      'X-CrewSwap-Event-Id': mail.id,
      ...(mail.listUnsubscribe ? { 'List-Unsubscribe': `<${mail.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
    },
  };
}

function smtpMailer(options: MailerOptions, url: string): Mailer {
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    transport: 'smtp',
    async send(mail) {
      const info = await transporter.sendMail(await message(options, mail));
      return String(info.messageId);
    },
    close: () => transporter.close(),
  };
}

function fileMailer(options: MailerOptions): Mailer {
  // buffer: the whole message at once; windows newlines: RFC 822 lines end in CRLF.
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    transport: 'file',
    async send(mail) {
      const info = await transporter.sendMail(await message(options, mail));
      await mkdir(options.outboxDir, { recursive: true });
      const path = join(options.outboxDir, emlFileName(options.clock.now(), mail.id, mail.to));
      await writeFile(path, info.message as Buffer, { flag: 'wx' });
      options.log.info({ path, to: mail.to, subject: mail.subject }, 'mail written to the local outbox folder (SMTP_URL is unset)');
      return path;
    },
    close: () => transporter.close(),
  };
}

/** `20261123T101500123Z-<id>-<to>.eml`: sorts by time, and names the recipient at a glance. */
export function emlFileName(at: Date, id: string, to: string): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  const recipient = to.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, 100);
  return `${stamp}-${id}-${recipient}.eml`;
}

/**
 * The From of outgoing mail: the admin's Outgoing Email Address (setting outgoing_email) under the
 * product's name, or MAIL_FROM while the setting is empty.
 */
export function mailFrom(outgoingEmail: string, productName: string, fallback: string): MailFrom {
  const address = outgoingEmail.trim();
  return address ? { name: productName, address } : fallback;
}
