/**
 * Event-to-browser latency: `npm run bench -w @crewswap/realtime [-- --clients 1000,5000] [--rate 200] [--seconds 10]`.
 * Starts the realtime service as its own process (as deployed), opens N streams (one pilot
 * each) on loopback, then publishes trip changes to JetStream at `rate` per second, each for a
 * random connected pilot, and measures from the event's occurredAt to the frame parsed by the
 * client. Memory per connection is the service's resident memory (and V8 heap) growth from
 * before the streams opened, divided by N. Targets: p99 < 100 ms, < 30 KB per connection.
 * It prints figures; it asserts nothing.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectBus, createLogger, deleteStreams, ensureStreams, generateSigningKeys, PILOT_COOKIE, repoRoot, serveSessionIssued, signPilotToken } from '@crewswap/kit';
import { uniqueName } from '@crewswap/kit/testing';
import { SUBJECTS } from '@crewswap/proto';

const { values: flags } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000,5000' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
  },
});
const STEPS = flags.clients.split(',').map(Number);
const RATE = Number(flags.rate);
const SECONDS = Number(flags.seconds);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const prefix = uniqueName('bench');
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const log = createLogger('bench', { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
  const bus = await connectBus({ url: natsUrl, prefix, name: 'sse-bench', log });
  await ensureStreams(bus);
  const keys = generateSigningKeys();
  // The bench issues the sessions, so it answers for them as auth would: realtime serves no other.
  const issued = new Set<string>();
  const issuedRpc = serveSessionIssued({ bus, log, service: 'auth', issued: async (sessionId) => issued.has(sessionId) });
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join('services', 'realtime', 'src', 'main.ts')], {
    cwd: repoRoot(),
    env: { ...process.env, PORT: String(port), NATS_URL: natsUrl, NATS_PREFIX: prefix, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const metric = async (name: string) => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  };
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error('realtime did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const pilots: string[] = [];
  const latencies: number[] = [];
  let measuring = false;

  function open(): Promise<void> {
    const pilotId = randomUUID();
    const sessionId = randomUUID();
    issued.add(sessionId);
    const token = signPilotToken(keys.privateKey, { sessionId, pilotId });
    return new Promise((resolve, reject) => {
      const req = request(`${base}/api/sse/events`, { agent, headers: { cookie: `${PILOT_COOKIE}=${token}` } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(6, end);
            buffer = buffer.slice(end + 2);
            const message = JSON.parse(frame) as { type: string; at: string };
            if (message.type === 'connected') {
              pilots.push(pilotId);
              resolve();
            } else if (message.type === 'trips-updated' && measuring) {
              latencies.push(Date.now() - Date.parse(message.at));
            }
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  const rssBefore = await metric('process_resident_memory_bytes');
  const heapBefore = await metric('nodejs_heap_size_used_bytes');
  console.log(`realtime (own process) at ${base}; ${RATE} events/s for ${SECONDS} s per step`);
  console.log('clients   p50 ms   p95 ms   p99 ms   max ms   delivered   RSS/conn   heap/conn');
  for (const target of STEPS) {
    while (pilots.length < target) {
      const batch = Math.min(200, target - pilots.length);
      await Promise.all(Array.from({ length: batch }, open));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const connections = await metric('realtime_sse_connections');
    const rss = await metric('process_resident_memory_bytes');
    const heap = await metric('nodejs_heap_size_used_bytes');

    latencies.length = 0;
    measuring = true;
    const started = Date.now();
    let sent = 0;
    const publishes: Promise<unknown>[] = [];
    while (Date.now() - started < SECONDS * 1000) {
      const due = Math.floor(((Date.now() - started) / 1000) * RATE);
      while (sent < due) {
        const pilotId = pilots[Math.floor(Math.random() * pilots.length)]!;
        const id = randomUUID();
        const envelope = { id, type: SUBJECTS.tripDeleted, occurredAt: new Date().toISOString(), version: 1, data: { tripId: randomUUID(), pilotId, origin: { channel: 'admin' } } };
        publishes.push(bus.js.publish(bus.subject(SUBJECTS.tripDeleted), JSON.stringify(envelope), { msgID: id }));
        sent += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await Promise.all(publishes);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    measuring = false;
    const sorted = [...latencies].sort((a, b) => a - b);
    const kb = (bytes: number) => `${(bytes / connections / 1024).toFixed(1)} KB`;
    console.log(
      [
        String(connections).padStart(7),
        percentile(sorted, 50).toFixed(0).padStart(8),
        percentile(sorted, 95).toFixed(0).padStart(8),
        percentile(sorted, 99).toFixed(0).padStart(8),
        (sorted.at(-1) ?? NaN).toFixed(0).padStart(8),
        `${sorted.length}/${sent}`.padStart(11),
        kb(rss - rssBefore).padStart(10),
        kb(heap - heapBefore).padStart(11),
      ].join(' '),
    );
  }
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  issuedRpc.unsubscribe();
  await deleteStreams(bus);
  await bus.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
