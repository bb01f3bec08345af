/** A test client for the realtime stream (through realtime itself or the gateway): the messages are proto's SseMessage. */
import { request } from 'node:http';
import { SseMessage } from '@crewswap/proto';

export interface SseStream {
  status: number;
  /** JSON body when the server refused the stream. */
  body?: unknown;
  messages: SseMessage[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves with the first message of a type (already received or still to come). */
  next(type: SseMessage['type']): Promise<SseMessage>;
  close(): void;
}

/** A minimal EventSource: opens the stream with a cookie and parses `data:` frames as SseMessage. */
export function openStream(url: string, cookie?: string): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) } }, (response) => {
      const messages: SseMessage[] = [];
      const waiters: { type: SseMessage['type']; resolve: (m: SseMessage) => void }[] = [];
      let buffer = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      response.setEncoding('utf8');
      if (response.statusCode !== 200) {
        let text = '';
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), messages, ended: Promise.resolve(), next: () => Promise.reject(new Error('no stream')), close: () => undefined }));
        return;
      }
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
          if (!data) continue;
          const message = SseMessage.parse(JSON.parse(data));
          messages.push(message);
          for (const waiter of waiters.filter((w) => w.type === message.type)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(message);
          }
        }
      });
      response.on('end', endedResolve);
      response.on('close', endedResolve);
      resolve({
        status: 200,
        messages,
        ended,
        next(type) {
          const seen = messages.find((m) => m.type === type);
          if (seen) return Promise.resolve(seen);
          return new Promise((r) => waiters.push({ type, resolve: r }));
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
