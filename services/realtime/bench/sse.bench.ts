/**
 * Live streams as a cost: `npm run bench -w @crewswap/realtime [-- --clients 5000,20000] [--rate 200] [--seconds 10]`.
 * Starts the realtime service and the gateway as their own processes (as deployed), opens N
 * streams (one pilot each) through the gateway from a few browser processes (`sse-clients.ts`,
 * each from a loopback address of its own), then publishes trip changes to JetStream at `rate`
 * per second, each for a random connected pilot, and measures from the event's occurredAt to the
 * frame parsed by the browser. Per process, read from /proc: memory per stream is the resident
 * size's growth from before the first stream opened, divided by the streams held; CPU per event is
 * the process's CPU time (user + system) over the events' spell divided by the events sent (it
 * includes the heartbeats of that spell, printed apart as CPU while idle). Then, streams still
 * open, one request at a time goes through the gateway's pool for ordinary requests: the streams
 * must not slow the other routes. Beside them, the floor: the same events heard straight from
 * NATS in the bench's own process (NATS p50/p99), which no stream can beat on the same machine.
 * `BENCH_CPU_PROF=<folder>` writes a CPU profile of the gateway and of realtime there.
 * Targets (issue 58): p99 < 100 ms, at most 30 KB per stream in the gateway and in realtime.
 * The gateway holds two sockets a stream (browser and realtime): a step beyond what its open-files
 * limit allows is cut to what fits, and says so. It prints figures; it asserts nothing.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectBus, createLogger, deleteStreams, ensureStreams, generateSigningKeys, PILOT_COOKIE, repoRoot, serveSessionIssued, signPilotToken } from '@crewswap/kit';
import { freePort, uniqueName } from '@crewswap/kit-testing';
import { SUBJECTS } from '@crewswap/proto';
import type { FromClients, ToClients } from './sse-clients';

const { values: flags } = parseArgs({
  options: {
    clients: { type: 'string', default: '5000,20000' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
  },
});
const STEPS = flags.clients.split(',').map(Number);
const RATE = Number(flags.rate);
const SECONDS = Number(flags.seconds);
/** Streams per browser process: one process holding 20,000 sockets would be the bottleneck itself. */
const STREAMS_PER_CLIENT = 5000;
/** Descriptors a process needs besides its streams (NATS, listeners, pools, files). */
const SPARE_FILES = 200;
const IDLE_SECONDS = 3;
const OTHER_SECONDS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
/** Resident size in bytes. */
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
/** CPU time (user + system) in ms. */
const cpu = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};
const openFilesLimit = (pid: number) => Number(/Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1] ?? Infinity);

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
  // The floor beside the streams: the same events heard straight from NATS, in this process.
  const bare: number[] = [];
  let hearing = false;
  const floor = bus.nc.subscribe(bus.subject(SUBJECTS.tripDeleted), {
    callback: (_error, message) => {
      if (hearing) bare.push(Date.now() - Date.parse((message.json() as { occurredAt: string }).occurredAt));
    },
  });
  const issuedRpc = serveSessionIssued({ bus, log, service: 'auth', issued: async (sessionId) => issued.has(sessionId) });
  const [port, gatewayPort, gatewayMetricsPort] = [await freePort(), await freePort(), await freePort()];
  // BENCH_CPU_PROF=<folder>: a CPU profile of each process, written when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const start = (name: string, env: Record<string, string>): ChildProcess =>
    spawn(process.execPath, [...profile, '--import', 'tsx', join('services', name, 'src', 'main.ts')], {
      cwd: repoRoot(),
      env: { ...process.env, NATS_URL: natsUrl, NATS_PREFIX: prefix, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  const realtimeProcess = start('realtime', { PORT: String(port) });
  // realtime stands in for trips too: a request to /api/trips goes through the gateway's pool
  // for ordinary requests (realtime answers it 404), to show it stays quick beside the streams.
  const gatewayProcess = start('gateway', {
    PORT: String(gatewayPort),
    METRICS_PORT: String(gatewayMetricsPort),
    REALTIME_URL: `http://127.0.0.1:${port}`,
    TRIPS_URL: `http://127.0.0.1:${port}`,
  });
  // The gateway stops first: its streams cut before their upstream, quietly.
  children.push(gatewayProcess, realtimeProcess);
  const pids = { gateway: gatewayProcess.pid!, realtime: realtimeProcess.pid! };
  const realtime = `http://127.0.0.1:${port}`;
  const base = `http://127.0.0.1:${gatewayPort}`;
  const metric = async (metricsUrl: string, name: string) => {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  };
  const metricsUrls = { gateway: `http://127.0.0.1:${gatewayMetricsPort}`, realtime };
  for (const url of [`${realtime}/readyz`, `${base}/readyz`]) {
    for (let i = 0; ; i += 1) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // not listening yet
      }
      if (i > 600) throw new Error(`${url} did not become ready`);
      await sleep(100);
    }
  }

  // The gateway holds two sockets a stream, realtime one: the open-files limit (ulimit -n, only
  // raised by a process allowed to, CAP_SYS_RESOURCE) caps what one gateway can hold here.
  const fit = Math.min(Math.floor((openFilesLimit(pids.gateway) - SPARE_FILES) / 2), openFilesLimit(pids.realtime) - SPARE_FILES);
  const most = Math.min(Math.max(...STEPS), fit);
  const browsers = Array.from({ length: Math.ceil(most / STREAMS_PER_CLIENT) }, () =>
    fork(join(import.meta.dirname, 'sse-clients.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  children.push(...browsers);
  // Each browser answers one question at a time, in order.
  const answers = browsers.map((browser) => {
    const waiting: ((reply: FromClients) => void)[] = [];
    browser.on('message', (reply: FromClients) => waiting.shift()?.(reply));
    return waiting;
  });
  const ask = <T extends FromClients['type']>(b: number, message: ToClients) =>
    new Promise<Extract<FromClients, { type: T }>>((resolve) => {
      answers[b]!.push(resolve as (reply: FromClients) => void);
      browsers[b]!.send(message);
    });
  const pilots: string[] = [];

  /** Sessions issued and announced here, streams opened by the browser processes (each its share). */
  async function openStreams(count: number): Promise<string[]> {
    const cookies: string[][] = browsers.map(() => []);
    const newPilots: string[] = [];
    for (let i = 0; i < count; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, count - i) }, async (_, j) => {
          const pilotId = randomUUID();
          const sessionId = randomUUID();
          issued.add(sessionId);
          await announce(sessionId, pilotId);
          newPilots.push(pilotId);
          cookies[(pilots.length + i + j) % browsers.length]!.push(`${PILOT_COOKIE}=${signPilotToken(keys.privateKey, { sessionId, pilotId })}`);
        }),
      );
    }
    const opened = await Promise.all(
      browsers.map((_, b) => ask<'opened'>(b, { type: 'open', url: `${base}/api/sse/events`, localAddress: `127.0.0.${2 + b}`, cookies: cookies[b]! })),
    );
    pilots.push(...newPilots);
    return opened.flatMap((answer) => answer.failed);
  }

  const sample = () => ({
    at: performance.now(),
    rss: { gateway: rss(pids.gateway), realtime: rss(pids.realtime) },
    cpu: { gateway: cpu(pids.gateway), realtime: cpu(pids.realtime) },
  });
  const heap = async () => ({
    gateway: await metric(metricsUrls.gateway, 'nodejs_heap_size_used_bytes'),
    realtime: await metric(metricsUrls.realtime, 'nodejs_heap_size_used_bytes'),
  });
  const before = sample();
  const heapBefore = await heap();
  console.log(
    `browsers (${browsers.length} processes) -> gateway (${base}, pid ${pids.gateway}) -> realtime (${realtime}, pid ${pids.realtime}); ` +
      `${RATE} events/s for ${SECONDS} s per step; open files: gateway ${openFilesLimit(pids.gateway)}, realtime ${openFilesLimit(pids.realtime)}`,
  );
  console.log(
    'streams held  load   p50 ms  p95 ms  p99 ms  max ms  delivered    KB/stream gw (heap)   KB/stream rt (heap)   CPU/event gw   rt   idle CPU ms/s gw   rt   other p50/p99 ms  NATS p50/p99',
  );
  const results: { asked: number; held: number; p99: number; gateway: number; realtime: number }[] = [];
  for (const asked of STEPS) {
    const target = Math.min(asked, most);
    if (target < asked) {
      console.log(
        `(${asked} asked: the gateway's open-files limit is ${openFilesLimit(pids.gateway)} and it holds two sockets a stream, ` +
          `so one gateway here holds at most ${fit}; ulimit -n cannot be raised in this container)`,
      );
    }
    const failed = await openStreams(target - pilots.length);
    if (failed.length > 0) console.log(`some streams did not open: ${failed.join('; ')}`);
    await sleep(2000);
    const held = await metric(realtime, 'realtime_sse_connections');
    const idleFrom = sample();
    await sleep(IDLE_SECONDS * 1000);
    const holding = sample();
    const heapNow = await heap();

    for (const browser of browsers) browser.send({ type: 'measure', on: true } satisfies ToClients);
    bare.length = 0;
    hearing = true;
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
      await sleep(2);
    }
    await Promise.all(publishes);
    await sleep(1000);
    const eventsDone = sample();
    hearing = false;
    const latencies = (await Promise.all(browsers.map((_, b) => ask<'latencies'>(b, { type: 'measure', on: false })))).flatMap((answer) => answer.values);

    const others: number[] = [];
    const othersFrom = Date.now();
    while (Date.now() - othersFrom < OTHER_SECONDS * 1000) {
      const sentAt = performance.now();
      await fetch(`${base}/api/trips`).then((response) => response.arrayBuffer());
      others.push(performance.now() - sentAt);
      await sleep(20);
    }

    const sorted = latencies.sort((a, b) => a - b);
    const otherSorted = others.sort((a, b) => a - b);
    const bareSorted = bare.sort((a, b) => a - b);
    const kb = (bytes: number) => (bytes / held / 1024).toFixed(1);
    const perStream = (name: 'gateway' | 'realtime') => `${kb(idleFrom.rss[name] - before.rss[name])} (${kb(heapNow[name] - heapBefore[name])})`;
    const perEvent = (name: 'gateway' | 'realtime') => `${(((eventsDone.cpu[name] - holding.cpu[name]) / sent) * 1000).toFixed(0)} µs`;
    const idle = (name: 'gateway' | 'realtime') => ((holding.cpu[name] - idleFrom.cpu[name]) / ((holding.at - idleFrom.at) / 1000)).toFixed(1);
    const p99 = percentile(sorted, 99);
    results.push({ asked, held, p99, gateway: (idleFrom.rss.gateway - before.rss.gateway) / held / 1024, realtime: (idleFrom.rss.realtime - before.rss.realtime) / held / 1024 });
    console.log(
      [
        String(held).padStart(12),
        loadavg()[0]!.toFixed(1).padStart(5),
        percentile(sorted, 50).toFixed(0).padStart(8),
        percentile(sorted, 95).toFixed(0).padStart(7),
        p99.toFixed(0).padStart(7),
        (sorted.at(-1) ?? NaN).toFixed(0).padStart(7),
        `${sorted.length}/${sent}`.padStart(10),
        perStream('gateway').padStart(20),
        perStream('realtime').padStart(21),
        perEvent('gateway').padStart(14),
        perEvent('realtime').padStart(7),
        idle('gateway').padStart(18),
        idle('realtime').padStart(5),
        `${percentile(otherSorted, 50).toFixed(1)} / ${percentile(otherSorted, 99).toFixed(1)}`.padStart(18),
        `${percentile(bareSorted, 50).toFixed(0)} / ${percentile(bareSorted, 99).toFixed(0)}`.padStart(13),
      ].join(' '),
    );
  }
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  for (const result of results) {
    console.log(
      `${result.asked} asked, ${result.held} held: p99 ${result.p99.toFixed(0)} ms (target < 100: ${verdict(result.p99 < 100)}), ` +
        `gateway ${result.gateway.toFixed(1)} KB and realtime ${result.realtime.toFixed(1)} KB per stream (target at most 30 each: ${verdict(result.gateway <= 30 && result.realtime <= 30)})`,
    );
  }
  // Browsers leave first, as pilots closing the app: streams cut by a stopping gateway log a warning each.
  await Promise.all(browsers.map((browser) => new Promise((resolve) => browser.once('exit', resolve).disconnect())));
  await sleep(1000);
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  floor.unsubscribe();
  issuedRpc.unsubscribe();
  await deleteStreams(bus);
  await bus.close();
}

main().catch((error: unknown) => {
  console.error(error);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
