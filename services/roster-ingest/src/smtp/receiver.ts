import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { inSpan, SpanKind, type Db, type Outbox } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import type { MailRepository } from '../data/mail';
import { MAIL_REFUSED, type Admission, type ReceivedMail } from '../domain/process-mail';
import { tokenOf } from '../domain/upload-address';

export interface SmtpReceiver {
  port: number;
  close(): Promise<void>;
}

/**
 * The SMTP receiver decides, before it answers DATA, whether the sender may mail a roster at all
 * (a refusal after 250 would reach nobody); the rest waits for the worker. A mail it takes is
 * stored and enqueued: the raw message goes to `inbound_mail` and its id onto the ROSTER_MAIL
 * stream (through the outbox, in the same transaction), so a burst of mail never waits for
 * parsing and nothing is lost if a process stops half-way.
 */
export async function startSmtpReceiver(deps: {
  db: Db;
  outbox: Outbox;
  mails: MailRepository;
  log: Logger;
  host: string;
  port: number;
  maxBytes: number;
  /** The addresses mail is accepted for (the `upload_email` setting and its fallback). */
  uploadAddresses: () => Promise<string[]>;
  /** Whether a private upload address's token belongs to a pilot (`roster+<token>@...`). */
  isPrivateToken: (token: string) => Promise<boolean>;
  /** Whether the sender may mail a roster (`processMail.admit`); a refusal is recorded by it. */
  admit: (mail: ReceivedMail) => Promise<Admission>;
  /** PEM key and certificate: STARTTLS is offered only with them. */
  tls?: { key: Buffer; cert: Buffer; required: boolean };
}): Promise<SmtpReceiver> {
  const { db, outbox, mails, log, tls } = deps;
  const server = new SMTPServer({
    name: 'crewswap-roster-ingest',
    banner: 'CrewSwap roster upload',
    size: deps.maxBytes,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    logger: false,
    onMailFrom(_address, session, callback) {
      // 530 is the reply RFC 3207 gives for "STARTTLS first"; a compliant client upgrades and retries.
      if (tls?.required && !session.secure) return callback(Object.assign(new Error('Must issue a STARTTLS command first: this server accepts mail only over TLS'), { responseCode: 530 }));
      return callback();
    },
    async onRcptTo(address, _session, callback) {
      try {
        const shared = await deps.uploadAddresses();
        if (shared.map((value) => value.toLowerCase()).includes(address.address.trim().toLowerCase())) return callback();
        // An unknown or replaced private address is refused here, so the sender's own server tells them.
        const token = tokenOf(address.address, shared);
        if (token && (await deps.isPrivateToken(token))) return callback();
        const error = Object.assign(new Error(`No such mailbox: ${address.address}`), { responseCode: 550 });
        return callback(error);
      } catch (error) {
        return callback(Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451, cause: error }));
      }
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // Past the limit the rest is only counted, so an oversized mail never fills memory.
        if (size <= deps.maxBytes) chunks.push(chunk);
      });
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          return callback(Object.assign(new Error('Message exceeds the maximum size of a roster email'), { responseCode: 552 }));
        }
        const id = randomUUID();
        const received: ReceivedMail = {
          raw: Buffer.concat(chunks),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          helo: session.hostNameAppearsAs ?? null,
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          remoteAddress: session.remoteAddress ?? null,
        };
        // A mail starts a trace of its own, which the outbox row carries on to the worker and beyond.
        void inSpan('smtp receive', async () => {
          const admission = await deps.admit(received);
          if (!admission.admitted) return admission;
          await db.transaction(async (trx) => {
            await mails.insert({ id, ...received, sizeBytes: received.raw.length, authenticatedFrom: admission.authenticatedFrom }, trx);
            await outbox.write(trx, SUBJECTS.rosterMailReceived, { mailId: id });
          });
          log.info({ mailId: id, sizeBytes: received.raw.length }, 'roster mail queued');
          return admission;
        }, { kind: SpanKind.SERVER, root: true, attributes: { 'crewswap.mail_id': id } }).then(
          // 550 ends the transaction for good: the sender's own server bounces it to them with this sentence.
          (admission) => (admission.admitted ? callback(null, `Queued as ${id}`) : callback(Object.assign(new Error(MAIL_REFUSED), { responseCode: 550 }))),
          (error: unknown) => {
            log.error({ err: error }, 'could not decide on or store an incoming roster mail; answered 451, the sender tries again');
            callback(Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451 }));
          },
        );
      });
    },
  });
  server.on('error', (error) => log.warn({ err: error }, 'SMTP receiver error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  log.info({ port }, 'SMTP receiver listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
