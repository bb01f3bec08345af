import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import webpush from 'web-push';
import type { StoredSubscription } from '../data/subscriptions';
import type { VapidKeys } from '@crewswap/kit';

export interface PushResult {
  status: number;
  detail: string;
}

export interface WebPushClient {
  /** Encrypts the payload for the subscription (RFC 8291), signs VAPID (RFC 8292) and POSTs it. */
  send(subscription: StoredSubscription, payload: string, ttlSeconds: number): Promise<PushResult>;
  close(): void;
}

/** A VAPID token is valid for 12 h (web-push's default); one is reused per push service for an hour. */
const VAPID_REUSE_MS = 3600_000;

/**
 * web-push encrypts each payload for its subscription; the VAPID Authorization header depends only
 * on the push service's origin, so it is signed once an hour per origin rather than per push.
 * Requests go over kept-alive connections: push services are few hosts receiving many requests.
 * Plain http is used only for the loopback endpoints tests and benchmarks run (the subscribe
 * route refuses others).
 */
export function createWebPushClient(vapid: VapidKeys, options: { timeoutMs?: number; ca?: string } = {}): WebPushClient {
  const https = new HttpsAgent({ keepAlive: true, maxSockets: 256, ...(options.ca ? { ca: options.ca } : {}) });
  const http = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const timeoutMs = options.timeoutMs ?? 10_000;
  const authorizations = new Map<string, { header: string; at: number }>();

  function authorization(audience: string): string {
    const cached = authorizations.get(audience);
    if (cached && Date.now() - cached.at < VAPID_REUSE_MS) return cached.header;
    const { Authorization } = webpush.getVapidHeaders(audience, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm') as { Authorization: string };
    authorizations.set(audience, { header: Authorization, at: Date.now() });
    return Authorization;
  }

  return {
    send(subscription, payload, ttlSeconds) {
      const url = new URL(subscription.endpoint);
      const { cipherText } = webpush.encrypt(subscription.keys.p256dh, subscription.keys.auth, payload, 'aes128gcm');
      const details = {
        method: 'POST',
        headers: {
          TTL: ttlSeconds,
          Urgency: 'normal',
          'Content-Encoding': 'aes128gcm',
          'Content-Type': 'application/octet-stream',
          'Content-Length': cipherText.length,
          Authorization: authorization(url.origin),
        },
        body: cipherText,
      };
      const secure = url.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      return new Promise<PushResult>((resolve, reject) => {
        const req = send(
          url,
          { method: details.method, headers: details.headers as Record<string, string | number>, agent: secure ? https : http, timeout: timeoutMs },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              if (body.length < 500) body += chunk;
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, detail: body.slice(0, 500) }));
          },
        );
        req.on('timeout', () => req.destroy(new Error(`push service did not answer within ${timeoutMs} ms`)));
        req.on('error', reject);
        req.end(details.body);
      });
    },
    close() {
      https.destroy();
      http.destroy();
    },
  };
}
