/**
 * A client that stops reading never makes the service hold more than the buffer limit for it:
 * updates fold into one 'trips-updated' sent when it reads again, and one still stalled at the
 * next heartbeat is closed. Real sockets on loopback; the client simply does not read.
 */
import { randomUUID } from 'node:crypto';
import { createConnection, createServer, type Socket } from 'node:net';
import { eventually } from '@crewswap/kit-testing';
import { createHub } from '../src/domain/hub';

const LIMIT = 16 * 1024;

async function socketPair(): Promise<{ server: Socket; client: Socket; close(): void }> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve));
  const client = createConnection((listener.address() as { port: number }).port, '127.0.0.1');
  client.pause();
  const server = await accepted;
  return {
    server,
    client,
    close() {
      server.destroy();
      client.destroy();
      listener.close();
    },
  };
}

const sinkOf = (socket: Socket) => ({
  write: (chunk: string) => socket.write(chunk),
  get writableLength() {
    return socket.writableLength;
  },
  end: () => socket.end(),
  onDrain: (listener: () => void) => socket.on('drain', listener),
});

describe('a slow client', () => {
  it('holds at most the buffer limit however many updates arrive, and gets one trips-updated when it reads again', async () => {
    const { server, client, close } = await socketPair();
    try {
      const hub = createHub({ bufferLimitBytes: LIMIT });
      const pilotId = randomUUID();
      hub.open({ pilotId, sessionId: randomUUID() }, sinkOf(server));
      let most = 0;
      for (let i = 0; i < 200_000; i += 1) {
        hub.deliver(pilotId, { type: 'trips-updated', message: 'trips-updated', channel: 'admin', at: new Date().toISOString() });
        most = Math.max(most, server.writableLength);
      }
      // Over the limit by at most the one frame that crossed it.
      expect(most).toBeLessThan(LIMIT + 200);

      let text = '';
      client.setEncoding('utf8');
      client.on('data', (chunk: string) => (text += chunk));
      client.resume();
      await eventually(() => text.includes('"channel":"system"') && text.endsWith('\n\n'));
      // The owed update is the last frame, after what was buffered.
      const frames = text.trim().split('\n\n');
      expect(JSON.parse(frames.at(-1)!.slice(6))).toMatchObject({ type: 'trips-updated', channel: 'system' });
    } finally {
      close();
    }
  });

  it('is closed when still stalled at the next heartbeat', async () => {
    const { server, close } = await socketPair();
    try {
      const hub = createHub({ bufferLimitBytes: LIMIT });
      const pilotId = randomUUID();
      hub.open({ pilotId, sessionId: randomUUID() }, sinkOf(server));
      while (server.writableLength <= LIMIT) {
        hub.deliver(pilotId, { type: 'trips-updated', message: 'trips-updated', channel: 'admin', at: new Date().toISOString() });
      }
      hub.heartbeat();
      expect(hub.size()).toBe(1);
      hub.heartbeat();
      expect(hub.size()).toBe(0);
    } finally {
      close();
    }
  });
});
