import { createSecureContext } from 'node:tls';
import { X509Certificate, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import type { Logger } from 'pino';

/** PEM key and certificate, as the receiver offers them on STARTTLS. */
export interface KeyPair {
  key: Buffer;
  cert: Buffer;
}

// A few DER (ASN.1) encoders: just enough for one self-signed certificate, which node's crypto
// signs but cannot assemble.
const length = (n: number) => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts);
const oid = (dotted: string) => {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const base128 = (value: number) => {
    const bytes = [value & 0x7f];
    for (let v = value >>> 7; v > 0; v >>>= 7) bytes.unshift((v & 0x7f) | 0x80);
    return bytes;
  };
  return tlv(0x06, Buffer.from([first! * 40 + second!, ...rest.flatMap(base128)]));
};
const utcTime = (date: Date) => tlv(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`));
const name = (commonName: string) => sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))));
const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));

/**
 * A self-signed certificate for these host names (and IP addresses), valid for `days`. What the
 * receiver offers on STARTTLS when no certificate is configured: a sending server that does not
 * check certificates (most MX delivery) still gets an encrypted channel. Tests use it too.
 */
export function selfSignedCertificate(hosts: string[], days = 365): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(16);
  // A positive INTEGER whose first byte is never 0: DER refuses a leading zero byte before one below 0x80
  // ('illegal padding'), which a random first byte gave one start in 256.
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  const now = Date.now();
  const altNames = hosts.map((host) => (isIP(host) === 4 ? tlv(0x87, Buffer.from(host.split('.').map(Number))) : tlv(0x82, Buffer.from(host))));
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version 3
    tlv(0x02, serial),
    ECDSA_SHA256,
    name(hosts[0] ?? 'localhost'),
    sequence(utcTime(new Date(now - 60_000)), utcTime(new Date(now + days * 86_400_000))),
    name(hosts[0] ?? 'localhost'),
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, sequence(sequence(oid('2.5.29.17'), tlv(0x04, sequence(...altNames))))),
  );
  const der = sequence(tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), sign('sha256', tbs, privateKey)));
  const cert = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  return { key: Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' })), cert: Buffer.from(cert) };
}

/** The files' key and certificate, if both read and belong together (not a renewal half-way). */
function readPair(files: { keyFile: string; certFile: string }): KeyPair | Error {
  try {
    const pair = { key: readFileSync(files.keyFile), cert: readFileSync(files.certFile) };
    createSecureContext(pair);
    return pair;
  } catch (error) {
    return error as Error;
  }
}

export function describeCertificate(cert: Buffer): { subject: string; validTo: string; fingerprint256: string } {
  const x509 = new X509Certificate(cert);
  return { subject: x509.subject, validTo: x509.validTo, fingerprint256: x509.fingerprint256 };
}

/**
 * Reads the key and certificate files now, and again whenever they change, handing each new pair
 * to `onChange`, so a renewed certificate is offered without a restart. A Kubernetes Secret volume
 * renews by swapping a symlink in the files' folder, which a watch on the folder sees; a periodic
 * read covers file systems whose changes a watch misses. A pair that does not load (a key renewed
 * before its certificate) is skipped until both are there; the previous one stays in use.
 */
export function watchCertificate(files: { keyFile: string; certFile: string }, onChange: (pair: KeyPair) => void, log: Logger, intervalMs = 60_000): { pair: KeyPair; close(): void } {
  const first = readPair(files);
  if (first instanceof Error) throw new Error(`SMTP TLS key or certificate cannot be used (${files.keyFile}, ${files.certFile}): ${first.message}`, { cause: first });
  let current = first;
  let pending: NodeJS.Timeout | undefined;
  const check = () => {
    pending = undefined;
    const next = readPair(files);
    if (next instanceof Error) return log.warn({ err: next }, 'SMTP TLS key or certificate unreadable; the previous certificate stays in use');
    if (next.key.equals(current.key) && next.cert.equals(current.cert)) return;
    current = next;
    onChange(next);
    log.info(describeCertificate(next.cert), 'SMTP TLS certificate reloaded');
  };
  // A renewal writes several entries at once: read once they have settled.
  const soon = () => {
    pending ??= setTimeout(check, 200);
  };
  const watchers: FSWatcher[] = [];
  for (const folder of new Set([dirname(files.keyFile), dirname(files.certFile)])) {
    try {
      watchers.push(watch(folder, { persistent: false }, soon).on('error', (error) => log.warn({ err: error, folder }, 'cannot watch the SMTP TLS folder; checked every minute instead')));
    } catch (error) {
      log.warn({ err: error, folder }, 'cannot watch the SMTP TLS folder; checked every minute instead');
    }
  }
  const timer = setInterval(check, intervalMs).unref();
  return {
    pair: first,
    close() {
      clearInterval(timer);
      clearTimeout(pending);
      for (const watcher of watchers) watcher.close();
    },
  };
}
