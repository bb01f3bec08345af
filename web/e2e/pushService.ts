/**
 * A push service on 127.0.0.1 for the browser test. A real browser's subscription points at its
 * vendor's push service (FCM for Chromium), which this machine cannot reach, so the test holds the
 * subscription's keys itself, receives what push-sender sends, checks it is a valid Web Push
 * request (RFC 8030 headers, RFC 8292 VAPID signature, RFC 8291 aes128gcm encryption), decrypts it
 * and hands the plaintext to the browser's service worker, as a push service would.
 */
import { createECDH, createPublicKey, hkdfSync, randomBytes, createDecipheriv, verify as verifySignature } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import assert from 'node:assert/strict';

const b64url = (bytes: Buffer) => bytes.toString('base64url');

export interface ReceivedPush {
  headers: IncomingMessage['headers'];
  /** The decrypted payload, as the service worker receives it. */
  plaintext: string;
  /** The VAPID token's claims (aud, exp, sub). */
  claims: Record<string, unknown>;
}

export interface LocalPushService {
  /** What the browser's PushSubscription would carry: the endpoint and the user agent's keys. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The next push that arrives (already checked and decrypted). */
  nextPush(timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

/** RFC 8291 section 3.4 and RFC 8188: one aes128gcm body decrypted with the user agent's keys. */
function decrypt(body: Buffer, uaKeys: ReturnType<typeof createECDH>, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  assert.equal(idLength, 65, 'the key id is the application server\'s 65-byte public key');
  const records = body.subarray(21 + idLength);
  assert.ok(records.length <= recordSize, 'one record, as Web Push sends');
  const uaPublic = uaKeys.getPublicKey();
  const ecdhSecret = uaKeys.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  assert.equal(padded[end], 2, 'the last record\'s padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<public key>`; answers the token's claims once its signature holds. */
function checkVapid(authorization: string | undefined, audience: string): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  assert.ok(match, `VAPID authorization header, got ${authorization}`);
  const [header, payload, signature] = match[1]!.split('.');
  const point = Buffer.from(match[2]!, 'base64url');
  assert.equal(point.length, 65);
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) }, format: 'jwk' });
  const valid = verifySignature('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
  assert.ok(valid, 'the VAPID token is signed by the key it names');
  assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { typ: 'JWT', alg: 'ES256' });
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
  assert.equal(claims.aud, audience);
  assert.ok(typeof claims.exp === 'number' && claims.exp * 1000 > Date.now(), 'the token has not expired');
  assert.match(String(claims.sub), /^(mailto:|https:)/);
  return claims;
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const uaKeys = createECDH('prime256v1');
  uaKeys.generateKeys();
  const authSecret = randomBytes(16);
  const arrived: Array<ReceivedPush | Error> = [];
  const waiting: Array<(push: ReceivedPush | Error) => void> = [];
  const deliver = (push: ReceivedPush | Error) => {
    const next = waiting.shift();
    if (next) next(push);
    else arrived.push(push);
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        assert.equal(request.method, 'POST');
        assert.equal(request.headers['content-encoding'], 'aes128gcm');
        assert.ok(Number(request.headers.ttl) >= 0, 'a TTL header');
        const claims = checkVapid(request.headers.authorization, `http://127.0.0.1:${port}`);
        const plaintext = decrypt(Buffer.concat(chunks), uaKeys, authSecret);
        response.writeHead(201).end();
        deliver({ headers: request.headers, plaintext, claims });
      } catch (error) {
        response.writeHead(400).end(String(error));
        deliver(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    subscription: {
      endpoint: `http://127.0.0.1:${port}/push/${b64url(randomBytes(12))}`,
      keys: { p256dh: b64url(uaKeys.getPublicKey()), auth: b64url(authSecret) },
    },
    nextPush: (timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const settle = (push: ReceivedPush | Error) => {
          clearTimeout(timer);
          if (push instanceof Error) reject(push);
          else resolve(push);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(settle), 1);
          reject(new Error(`No push arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        const ready = arrived.shift();
        if (ready) settle(ready);
        else waiting.push(settle);
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
