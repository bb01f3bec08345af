/**
 * A push service of our own on loopback http, standing in for FCM or Mozilla's: it checks that
 * every request is a valid Web Push request (RFC 8030 headers, a VAPID JWT signed with the
 * server's key for this origin (RFC 8292), and a body that decrypts with the browser's keys
 * (RFC 8291, aes128gcm)) and answers what each endpoint is told to (201, 410, 500...).
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PushPayload } from '@crewswap/proto';

export interface ReceivedPush {
  device: string;
  payload: PushPayload;
  ttl: number;
  urgency?: string;
}

/** A browser's side of a subscription: its key pair and auth secret. */
export interface Device {
  name: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** Answers to the next pushes, in order; afterwards 201. */
  answers: number[];
  ecdh: ReturnType<typeof createECDH>;
  authSecret: Buffer;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

export async function startPushService(vapid: { publicKey: string; subject: string }) {
  const devices = new Map<string, Device>();
  const received: ReceivedPush[] = [];
  const invalid: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = request.url?.split('/').at(-1) ?? '';
      const device = devices.get(name);
      try {
        if (!device) throw new Error(`no device ${name}`);
        const payload = check(request, Buffer.concat(chunks), device);
        const answer = device.answers.shift() ?? 201;
        if (answer === 201) received.push({ device: name, payload, ttl: Number(request.headers.ttl), urgency: request.headers.urgency as string | undefined });
        response.writeHead(answer).end();
      } catch (error) {
        invalid.push(`${name}: ${(error as Error).message}`);
        response.writeHead(400).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function check(request: IncomingMessage, body: Buffer, device: Device): PushPayload {
    if (request.method !== 'POST') throw new Error(`method ${request.method}`);
    if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('content-encoding is not aes128gcm');
    if (!/^\d+$/.test(String(request.headers.ttl))) throw new Error('no TTL header');
    const auth = /^vapid t=([^,]+), k=(.+)$/.exec(String(request.headers.authorization));
    if (!auth) throw new Error(`authorization is not vapid: ${request.headers.authorization}`);
    const [, token, key] = auth;
    if (key !== vapid.publicKey) throw new Error('k is not the server public key');
    const [head, claims, signature] = token!.split('.');
    const raw = Buffer.from(key!, 'base64url');
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) }, format: 'jwk' });
    if (!verify('sha256', Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'))) {
      throw new Error('VAPID signature does not verify');
    }
    const header = JSON.parse(Buffer.from(head!, 'base64url').toString()) as { alg: string };
    const jwt = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { aud: string; exp: number; sub: string };
    if (header.alg !== 'ES256') throw new Error('JWT alg is not ES256');
    if (jwt.aud !== origin) throw new Error(`aud ${jwt.aud} is not ${origin}`);
    const now = Date.now() / 1000;
    if (!(jwt.exp > now && jwt.exp <= now + 24 * 3600)) throw new Error('exp not within 24 h');
    if (jwt.sub !== vapid.subject) throw new Error('sub is not the VAPID subject');
    return PushPayload.parse(JSON.parse(decrypt(body, device).toString('utf8')));
  }

  function decrypt(body: Buffer, device: Device): Buffer {
    const salt = body.subarray(0, 16);
    const idlen = body[20]!;
    const senderPublic = body.subarray(21, 21 + idlen);
    const ciphertext = body.subarray(21 + idlen);
    const receiverPublic = device.ecdh.getPublicKey();
    const secret = device.ecdh.computeSecret(senderPublic);
    const info = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
    const ikm = Buffer.from(hkdfSync('sha256', secret, device.authSecret, info, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
    // The last record ends with the delimiter 0x02 and zero padding.
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end -= 1;
    if (plain[end] !== 2) throw new Error('no last-record delimiter');
    return plain.subarray(0, end);
  }

  return {
    origin,
    received,
    invalid,
    /** A browser subscribing: fresh keys and an endpoint on this service. */
    device(name: string, answers: number[] = []): Device {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const device: Device = { name, endpoint: `${origin}/push/${name}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(authSecret) }, answers, ecdh, authSecret };
      devices.set(name, device);
      return device;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
