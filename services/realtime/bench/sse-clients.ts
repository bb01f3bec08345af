/**
 * One of the realtime bench's browser processes (`sse.bench.ts` forks a few): it opens the
 * streams it is handed through the gateway, from a loopback address of its own, and reports
 * when each batch is open and, when asked, how long each 'trips-updated' took from the event's
 * occurredAt to the parsed frame. Apart from the bench so that thousands of client sockets take
 * their CPU in processes of their own, not in the one that publishes and measures.
 */
import { Agent, request } from 'node:http';

export type ToClients =
  | { type: 'open'; url: string; localAddress: string; cookies: string[] }
  /** Latencies are kept from 'on' (those before are dropped) and sent back at 'off'. */
  | { type: 'measure'; on: boolean };
export type FromClients = { type: 'opened'; opened: number; failed: string[] } | { type: 'latencies'; values: number[] };

/** Opened at once: more only queue in the gateway's accept backlog. */
const OPENING_AT_ONCE = 100;

const send = (message: FromClients) => process.send!(message);
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
let measuring = false;
let latencies: number[] = [];

function open(url: string, localAddress: string, cookie: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, localAddress, headers: { cookie } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return reject(new Error(`stream answered ${response.statusCode}`));
      }
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = JSON.parse(buffer.slice(buffer.indexOf('data: ') + 6, end)) as { type: string; at: string };
          buffer = buffer.slice(end + 2);
          if (message.type === 'connected') resolve();
          else if (message.type === 'trips-updated' && measuring) latencies.push(Date.now() - Date.parse(message.at));
        }
      });
      response.on('close', () => reject(new Error('stream closed before its first frame')));
    });
    req.on('error', reject);
    req.end();
  });
}

process.on('message', (message: ToClients) => {
  if (message.type === 'measure') {
    measuring = message.on;
    if (!measuring) send({ type: 'latencies', values: latencies });
    latencies = [];
  } else {
    void (async () => {
      const failed: string[] = [];
      let opened = 0;
      for (let i = 0; i < message.cookies.length; i += OPENING_AT_ONCE) {
        const results = await Promise.allSettled(message.cookies.slice(i, i + OPENING_AT_ONCE).map((cookie) => open(message.url, message.localAddress, cookie)));
        for (const result of results) {
          if (result.status === 'fulfilled') opened += 1;
          else if (failed.length < 5) failed.push(String(result.reason));
        }
      }
      send({ type: 'opened', opened, failed });
    })();
  }
});
process.on('disconnect', () => process.exit(0));
