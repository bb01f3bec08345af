/**
 * Event-to-browser latency: `npm run bench -w @crewswap/realtime [-- --clients 1000,5000] [--rate 200] [--seconds 10]`.
 * Starts the realtime service and the gateway as their own processes (as deployed), opens N
 * streams (one pilot each) through the gateway on loopback, as browsers do, then publishes trip
 * changes to JetStream at `rate` per second, each for a random connected pilot, and measures from
 * the event's occurredAt to the frame parsed by the client. Memory per connection is each
 * process's resident memory (and V8 heap) growth from before the streams opened, divided by N.
 * Beside the streams, one request at a time goes through the gateway's pool for ordinary requests
 * (p50/p99 printed): the streams must not slow the other routes.
 * Targets: p99 < 100 ms, < 30 KB per connection in the gateway and in realtime.
 * It prints figures; it asserts nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectBus, createLogger, deleteStreams, ensureStreams, generateSigningKeys, PILOT_COOKIE, repoRoot, serveSessionIssued, signPilotToken } from '@crewswap/kit';
import { uniqueName } from '@crewswap/kit-testing';
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

/** The processes started, stopped on the way out even when the bench fails. */
const children: ChildProcess[] = [];

async function main(): Promise<void> {
  const prefix = uniqueName('bench');
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const log = createLogger('bench', { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
  const bus = await connectBus({ url: natsUrl, prefix, name: 'sse-bench', log });
  await ensureStreams(bus);
  const keys = generateSigningKeys();
  // The bench issues the sessions, so it answers for them as auth would: realtime serves no other.
  const issued = new Set<string>();
  // Each session is also announced as auth announces a login, so realtime knows it before its
  // stream opens (asked one by one instead, 200 questions at once timed out on a busy machine).
  const announce = (sessionId: string, pilotId: string) =>
    bus.js.publish(
      bus.subject(SUBJECTS.sessionStarted),
      JSON.stringify({ id: randomUUID(), type: SUBJECTS.sessionStarted, occurredAt: new Date().toISOString(), version: 1, data: { sessionId, pilotId } }),
    );
  const issuedRpc = serveSessionIssued({ bus, log, service: 'auth', issued: async (sessionId) => issued.has(sessionId) });
  const [port, gatewayPort, gatewayMetricsPort] = [await freePort(), await freePort(), await freePort()];
  const start = (name: string, env: Record<string, string>): ChildProcess =>
    spawn(process.execPath, ['--import', 'tsx', join('services', name, 'src', 'main.ts')], {
      cwd: repoRoot(),
      env: { ...process.env, NATS_URL: natsUrl, NATS_PREFIX: prefix, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  children.push(
    start('realtime', { PORT: String(port) }),
    // realtime stands in for trips too: a request to /api/trips goes through the gateway's pool
    // for ordinary requests (realtime answers it 404), to show it stays quick beside the streams.
    start('gateway', { PORT: String(gatewayPort), METRICS_PORT: String(gatewayMetricsPort), REALTIME_URL: `http://127.0.0.1:${port}`, TRIPS_URL: `http://127.0.0.1:${port}` }),
  );
  const realtime = `http://127.0.0.1:${port}`;
  const base = `http://127.0.0.1:${gatewayPort}`;
  const metric = async (metricsUrl: string, name: string) => {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  };
  const processes = { gateway: `http://127.0.0.1:${gatewayMetricsPort}`, realtime };
  for (const url of [`${realtime}/readyz`, `${base}/readyz`]) {
    for (let i = 0; ; i += 1) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // not listening yet
      }
      if (i > 600) throw new Error(`${url} did not become ready`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // Each stream is a socket here, two in the gateway and one in realtime: the open-files limit
  // must allow them (this process's limit is the children's too).
  const openFiles = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Infinity);
  const most = Math.max(...STEPS);
  if (openFiles < 2 * most + 1000) console.log(`warning: open files limited to ${openFiles} (ulimit -n); ${most} streams need about ${2 * most + 1000}`);

  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const pilots: string[] = [];
  const latencies: number[] = [];
  let measuring = false;

  async function open(): Promise<void> {
    const pilotId = randomUUID();
    const sessionId = randomUUID();
    issued.add(sessionId);
    await announce(sessionId, pilotId);
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

  const memory = async () => {
    const figures: Record<string, { rss: number; heap: number }> = {};
    for (const [name, url] of Object.entries(processes)) {
      figures[name] = { rss: await metric(url, 'process_resident_memory_bytes'), heap: await metric(url, 'nodejs_heap_size_used_bytes') };
    }
    return figures;
  };
  const before = await memory();
  console.log(`browsers -> gateway (${base}) -> realtime (${realtime}), each its own process; ${RATE} events/s for ${SECONDS} s per step`);
  console.log('clients   p50 ms   p95 ms   p99 ms   max ms   delivered   gateway RSS/conn  heap/conn   realtime RSS/conn  heap/conn   other request p50/p99 ms');
  const results: { clients: number; p99: number; kb: Record<string, number> }[] = [];
  for (const target of STEPS) {
    while (pilots.length < target) {
      const batch = Math.min(200, target - pilots.length);
      await Promise.all(Array.from({ length: batch }, open));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const connections = await metric(realtime, 'realtime_sse_connections');
    const now = await memory();

    latencies.length = 0;
    measuring = true;
    const started = Date.now();
    let sent = 0;
    const publishes: Promise<unknown>[] = [];
    const others: number[] = [];
    const other = (async () => {
      while (Date.now() - started < SECONDS * 1000) {
        const sentAt = performance.now();
        await fetch(`${base}/api/trips`).then((response) => response.arrayBuffer());
        others.push(performance.now() - sentAt);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
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
    await Promise.all([...publishes, other]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    measuring = false;
    const sorted = [...latencies].sort((a, b) => a - b);
    const otherSorted = [...others].sort((a, b) => a - b);
    const kb = (bytes: number) => bytes / connections / 1024;
    const perConnection = (name: string) => ({ rss: kb(now[name]!.rss - before[name]!.rss), heap: kb(now[name]!.heap - before[name]!.heap) });
    const [gateway, service] = [perConnection('gateway'), perConnection('realtime')];
    const p99 = percentile(sorted, 99);
    results.push({ clients: connections, p99, kb: { gateway: gateway.rss, realtime: service.rss } });
    console.log(
      [
        String(connections).padStart(7),
        percentile(sorted, 50).toFixed(0).padStart(8),
        percentile(sorted, 95).toFixed(0).padStart(8),
        p99.toFixed(0).padStart(8),
        (sorted.at(-1) ?? NaN).toFixed(0).padStart(8),
        `${sorted.length}/${sent}`.padStart(11),
        `${gateway.rss.toFixed(1)} KB`.padStart(17),
        `${gateway.heap.toFixed(1)} KB`.padStart(10),
        `${service.rss.toFixed(1)} KB`.padStart(18),
        `${service.heap.toFixed(1)} KB`.padStart(10),
        `${percentile(otherSorted, 50).toFixed(1)} / ${percentile(otherSorted, 99).toFixed(1)}`.padStart(26),
      ].join(' '),
    );
  }
  const last = results.at(-1)!;
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  console.log(
    `\nat ${last.clients} streams: p99 ${last.p99.toFixed(0)} ms (target < 100: ${verdict(last.p99 < 100)}), ` +
      `gateway ${last.kb.gateway!.toFixed(1)} KB and realtime ${last.kb.realtime!.toFixed(1)} KB per connection (target < 30 each: ${verdict(last.kb.gateway! < 30 && last.kb.realtime! < 30)})`,
  );
  agent.destroy();
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  issuedRpc.unsubscribe();
  await deleteStreams(bus);
  await bus.close();
}

main().catch((error: unknown) => {
  console.error(error);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
