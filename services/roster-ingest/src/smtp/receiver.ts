import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { inSpan, SpanKind, type Db, type Outbox } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import type { MailRepository } from '../data/mail';
import { MAIL_REFUSED, type Admission, type ReceivedMail } from '../domain/process-mail';
import { tokenOf } from '../domain/upload-address';
import { createMailBudget } from './budget';
import { describeCertificate, selfSignedCertificate, watchCertificate, type KeyPair } from './certificate';

export interface SmtpReceiver {
  port: number;
  close(): Promise<void>;
}

/** The 5xx of a mail past the size limit, sent as soon as the limit is passed (the rest is only drained). */
export const tooLarge = (maxBytes: number) => `Message exceeds the maximum size of a roster email (${Math.floor(maxBytes / (1024 * 1024))} MB)`;

/** The 4xx of a mail let go to keep within SMTP_BUFFER_BYTES (RFC 3463 4.3.1, insufficient system storage). */
export const BUSY = 'Too much mail is arriving at once: try again later';

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
  /** Connections at once; one more is answered 421 and closed. */
  maxClients: number;
  /** Bytes of mail in transit held in memory, all connections together (`smtp/budget.ts`). */
  bufferBytes: number;
  /** The addresses mail is accepted for (the `upload_email` setting and its fallback). */
  uploadAddresses: () => Promise<string[]>;
  /** Whether a private upload address's token belongs to a pilot (`roster+<token>@...`). */
  isPrivateToken: (token: string) => Promise<boolean>;
  /** Whether the sender may mail a roster (`processMail.admit`); a refusal is recorded by it. */
  admit: (mail: ReceivedMail) => Promise<Admission>;
  /**
   * STARTTLS (absent: plain text only). `files`: PEM key and certificate, read again whenever they
   * change; without them a self-signed certificate made at start. `required`: refuse plain text.
   */
  tls?: { files?: { keyFile: string; certFile: string }; required: boolean };
}): Promise<SmtpReceiver> {
  const { db, outbox, mails, log, tls } = deps;
  const budget = createMailBudget(deps.bufferBytes);
  const watcher = tls?.files ? watchCertificate(tls.files, (pair) => server.updateSecureContext(pair), log) : undefined;
  let pair: KeyPair | undefined = watcher?.pair;
  if (tls && !pair) {
    pair = selfSignedCertificate([hostname(), 'localhost', '127.0.0.1']);
    log.warn('STARTTLS with a self-signed certificate made at start: set SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE for one the MX host name is known by');
  } else if (pair) log.info(describeCertificate(pair.cert), 'SMTP TLS certificate loaded');
  const server = new SMTPServer({
    name: 'crewswap-roster-ingest',
    banner: 'CrewSwap roster upload',
    // Advertised in EHLO (SIZE), so a client that declares a larger mail is refused at MAIL FROM.
    size: deps.maxBytes,
    // One more connection is answered "421 ... Too many connected clients, try again in a moment".
    maxClients: deps.maxClients,
    authOptional: true,
    disabledCommands: pair ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(pair ? { key: pair.key, cert: pair.cert } : {}),
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
      // The mail is held only within the limit and the budget. The moment it passes the limit, what
      // was held is let go and the 552 decided; smtp-server sends it once the client has sent the
      // rest, which is read and dropped as it comes, so an oversized mail costs a chunk at a time.
      const mail = {};
      let chunks: Buffer[] | undefined = [];
      let size = 0;
      let answered = false;
      const answer: typeof callback = (error, message) => {
        budget.release(mail);
        if (answered) return;
        answered = true;
        callback(error, message);
      };
      const letGo = () => {
        chunks = undefined;
        budget.release(mail);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (answered) return;
        if (size > deps.maxBytes) {
          letGo();
          log.info({ remoteAddress: session.remoteAddress, maxBytes: deps.maxBytes }, 'roster mail over the size limit refused (552)');
          return answer(Object.assign(new Error(tooLarge(deps.maxBytes)), { responseCode: 552 }));
        }
        if (chunks && !budget.take(mail, chunk.length, letGo)) letGo();
        chunks?.push(chunk);
      });
      stream.on('error', (error) => answer(error));
      stream.on('end', () => {
        if (answered) return;
        if (!chunks) {
          log.warn({ remoteAddress: session.remoteAddress, sizeBytes: size, heldBytes: budget.heldBytes() }, 'too much mail arriving at once: the largest let go and answered 452, the sender tries again');
          return answer(Object.assign(new Error(BUSY), { responseCode: 452 }));
        }
        budget.keep(mail);
        const raw = Buffer.concat(chunks, size);
        chunks = undefined;
        const id = randomUUID();
        const received: ReceivedMail = {
          raw,
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
          (admission) => (admission.admitted ? answer(null, `Queued as ${id}`) : answer(Object.assign(new Error(MAIL_REFUSED), { responseCode: 550 }))),
          (error: unknown) => {
            log.error({ err: error }, 'could not decide on or store an incoming roster mail; answered 451, the sender tries again');
            answer(Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451 }));
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
  log.info({ port, starttls: Boolean(pair), maxClients: deps.maxClients, maxBytes: deps.maxBytes }, 'SMTP receiver listening');
  return {
    port,
    close: () => {
      watcher?.close();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
