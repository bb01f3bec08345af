import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import webpush from 'web-push';
import type { StoredSubscription } from '../data/subscriptions';
import type { VapidKeys } from './vapid';

export interface PushResult {
  status: number;
  detail: string;
}

export interface WebPushClient {
  /** Encrypts the payload for the subscription (RFC 8291), signs VAPID (RFC 8292) and POSTs it. */
  send(subscription: StoredSubscription, payload: string, ttlSeconds: number): Promise<PushResult>;
  close(): void;
}

/**
 * web-push builds each request (encryption and VAPID headers); it is sent here over kept-alive
 * connections, since push services are few hosts receiving many requests. Plain http is used only
 * for the loopback endpoints tests and benchmarks run (the subscribe route refuses others).
 */
export function createWebPushClient(vapid: VapidKeys, options: { timeoutMs?: number; ca?: string } = {}): WebPushClient {
  const https = new HttpsAgent({ keepAlive: true, maxSockets: 256, ...(options.ca ? { ca: options.ca } : {}) });
  const http = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    send(subscription, payload, ttlSeconds) {
      const details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: subscription.keys }, payload, {
        vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: ttlSeconds,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      });
      const url = new URL(details.endpoint);
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
        req.end(details.body ?? undefined);
      });
    },
    close() {
      https.destroy();
      http.destroy();
    },
  };
}
