/**
 * What the gateway costs: the same request (`GET /api/trips`, a pilot with 5 trips) sent straight
 * to trips and through the gateway, back to back, with autocannon (10 connections). Each round
 * runs both at a fixed rate (latency added) and at full speed (throughput kept); rounds alternate
 * the order, and the median round is the figure, since the machine is shared and noisy.
 * Starts what it needs: a temporary database, trips and the gateway as their own processes (as
 * `make up` runs them, logs at info), and stops and drops them at the end. Beside them runs a bare
 * proxy (bench/bare-proxy.mjs: node:http and an undici pool, nothing else), measured at full speed
 * in every round: what any Node.js hop keeps of the direct throughput on this machine, where the
 * load generator, Postgres, trips and the hop share the cores.
 * Run: npm run bench -w @crewswap/gateway
 * BENCH_ROUNDS, BENCH_SECONDS, BENCH_RATE change the runs; BENCH_CPU_PROF=<folder> profiles the gateway.
 * Targets: at the fixed rate the gateway adds at most 1 ms at p50 and 3 ms at p99; at full speed
 * it keeps at least 80% of the direct throughput.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connectBus, createLogger, generateSigningKeys, PILOT_COOKIE, repoRoot, serveSessionIssued, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, uniqueName } from '@crewswap/kit/testing';
import { addDays, londonToday } from '@crewswap/proto';
import autocannon from 'autocannon';
import knexFactory from 'knex';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const CONNECTIONS = 10;

interface Figures {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  /** CPU time (user and system) each process spent per request in this run, in microseconds. */
  cpu: Record<string, number>;
  /** How busy the whole machine was during the run, in % of all its cores. */
  machineBusy: number;
}

/**
 * CPU time a process has used, in ms, from /proc (Linux): unlike latency, it hardly moves with
 * what else the machine is running, so it says what the gateway itself costs per request.
 */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100;
const processes: Record<string, ChildProcess> = {};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** BENCH_CPU_PROF=<folder>: the gateway writes a CPU profile there when it stops (what is left per request). */
const CPU_PROF = process.env.BENCH_CPU_PROF;

function start(name: string, env: Record<string, string>): ChildProcess {
  const profile = name === 'gateway' && CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const entry = name === 'bare' ? [join('services', 'gateway', 'bench', 'bare-proxy.mjs')] : ['--import', 'tsx', join('services', name, 'src', 'main.ts')];
  const child = spawn(process.execPath, [...profile, ...entry], {
    cwd: repoRoot(),
    env: { ...(process.env as Record<string, string>), LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env },
    // Logs are written as in production (to stdout) and dropped.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== null && code !== 0) console.error(`${name} exited with ${code ?? signal}`);
  });
  return child;
}

async function waitReady(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} not ready in 120 s`);
}

/** The whole machine's CPU ticks, busy and in all, from /proc/stat: how near the 2 cores were to full. */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3]! + fields[4]!;
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

async function run(url: string, cookie: string, rate?: number): Promise<Figures> {
  const machineBefore = machineTicks();
  const before = Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, cpuMs(child.pid)]));
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { cookie },
    ...(rate ? { overallRate: rate } : {}),
  });
  const cpu = Object.fromEntries(
    Object.entries(processes).map(([name, child]) => [name, ((cpuMs(child.pid) - before[name]!) * 1000) / Math.max(1, result.requests.total)]),
  );
  const machineAfter = machineTicks();
  const machineBusy = (100 * (machineAfter.busy - machineBefore.busy)) / Math.max(1, machineAfter.total - machineBefore.total);
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx, cpu, machineBusy };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const database = await createTestDatabase();
const keys = generateSigningKeys();
const children: ChildProcess[] = [];
const natsPrefix = uniqueName('bench');
const bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix: natsPrefix, name: 'gateway-bench', log: createLogger('bench', { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' }) });
const sessionId = randomUUID();
// The bench issues the session, so it answers for it as auth would: trips serves no other.
const issuedRpc = serveSessionIssued({ bus, log: createLogger('bench', { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' }), service: 'auth', issued: async (id) => id === sessionId });
try {
  const [tripsPort, gatewayPort] = [await freePort(), await freePort()];
  const common = {
    DATABASE_URL: database.url,
    NATS_PREFIX: natsPrefix,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_PRIVATE_KEY: keys.privateKey,
  };
  children.push((processes.trips = start('trips', { ...common, PORT: String(tripsPort), PURGE_SCHEDULER_ENABLED: 'false' })));
  const direct = `http://127.0.0.1:${tripsPort}`;
  await waitReady(`${direct}/readyz`);
  children.push((processes.gateway = start('gateway', { ...common, PORT: String(gatewayPort), METRICS_PORT: '0', TRIPS_URL: direct })));
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(`${gateway}/healthz`);
  const barePort = await freePort();
  children.push((processes.bare = start('bare', { PORT: String(barePort), TRIPS_URL: direct })));
  const bare = `http://127.0.0.1:${barePort}`;
  await waitReady(`${bare}/healthz`);

  // One pilot with 5 trips, written straight into trips' tables.
  const pilotId = randomUUID();
  const db = knexFactory({ client: 'pg', connection: database.url, searchPath: ['trips'] });
  const today = londonToday();
  await db('pilots').insert({
    id: pilotId, employee_id: '900001', first_name: 'Bench', last_name: 'Pilot', rank: 'FO', fleet: 'A350', base: 'LHR',
    apic: false, ltc: false, usual_req: false, test_data: true, search_day_range: null, profile: '{}', occurred_at: new Date(),
  });
  await db('trips').insert(
    [0, 1, 2, 3, 4].map((i) => ({
      pilot_id: pilotId, flight_no_start: 'VS003', flight_no_end: 'VS004', aircraft: 'A350', route: 'JFK',
      start_date: addDays(today, 2 + i * 5), end_date: addDays(today, 4 + i * 5), is_swappable: i % 2 === 0,
    })),
  );
  await db.destroy();
  const cookie = `${PILOT_COOKIE}=${signPilotToken(keys.privateKey, { sessionId, pilotId })}`;
  const path = '/api/trips';
  const check = await fetch(`${gateway}${path}`, { headers: { cookie } });
  if (check.status !== 200) throw new Error(`GET ${path} through the gateway answered ${check.status}`);

  // Warm up both paths (connections, JIT) before measuring.
  await run(`${direct}${path}`, cookie);
  await run(`${gateway}${path}`, cookie);
  await run(`${bare}${path}`, cookie);

  const rounds: { direct: Figures; gateway: Figures; directMax: Figures; gatewayMax: Figures; bareMax: Figures }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternating the order keeps a slow spell on the shared machine from always hitting one side.
    const first = round % 2 === 0 ? 'direct' : 'gateway';
    const measure = async (rate?: number) => {
      const a = await run(`${first === 'direct' ? direct : gateway}${path}`, cookie, rate);
      const b = await run(`${first === 'direct' ? gateway : direct}${path}`, cookie, rate);
      return first === 'direct' ? { direct: a, gateway: b } : { direct: b, gateway: a };
    };
    const fixed = await measure(RATE);
    const max = await measure();
    // The reference: the bare proxy at full speed in the same round (bench/bare-proxy.mjs).
    const bareMax = await run(`${bare}${path}`, cookie);
    rounds.push({ direct: fixed.direct, gateway: fixed.gateway, directMax: max.direct, gatewayMax: max.gateway, bareMax });
    const r = rounds.at(-1)!;
    console.log(
      `round ${round + 1}: at ${RATE} req/s direct p50 ${r.direct.p50} / p99 ${r.direct.p99} ms, gateway p50 ${r.gateway.p50} / p99 ${r.gateway.p99} ms; ` +
        `full speed direct ${r.directMax.rps.toFixed(0)} req/s, gateway ${r.gatewayMax.rps.toFixed(0)} req/s (${((100 * r.gatewayMax.rps) / r.directMax.rps).toFixed(0)}%), ` +
        `bare proxy ${r.bareMax.rps.toFixed(0)} req/s (${((100 * r.bareMax.rps) / r.directMax.rps).toFixed(0)}%)` +
        `; CPU per request at full speed: trips ${r.directMax.cpu.trips!.toFixed(0)} µs, gateway ${r.gatewayMax.cpu.gateway!.toFixed(0)} µs, bare proxy ${r.bareMax.cpu.bare!.toFixed(0)} µs` +
        `; machine busy ${r.directMax.machineBusy.toFixed(0)}% direct, ${r.gatewayMax.machineBusy.toFixed(0)}% through the gateway (of ${cpus().length} cores)` +
        (r.direct.errors + r.gateway.errors + r.directMax.errors + r.gatewayMax.errors > 0 ? '  ERRORS' : ''),
    );
  }

  const addedP50 = median(rounds.map((r) => r.gateway.p50 - r.direct.p50));
  const addedP99 = median(rounds.map((r) => r.gateway.p99 - r.direct.p99));
  const ratio = median(rounds.map((r) => r.gatewayMax.rps / r.directMax.rps));
  const bareRatio = median(rounds.map((r) => r.bareMax.rps / r.directMax.rps));
  const row = (label: string, pick: (r: (typeof rounds)[number]) => number, unit: string) =>
    `| ${label.padEnd(38)} | ${median(rounds.map(pick)).toFixed(unit === 'req/s' ? 0 : 1).padStart(8)} ${unit.padEnd(5)} |`;
  console.log(`\nGET ${path} (5 trips), ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} rounds\n`);
  console.log(`| ${'figure'.padEnd(38)} | ${'value'.padStart(14)} |`);
  console.log(`|${'-'.repeat(40)}|${'-'.repeat(16)}|`);
  console.log(row(`direct p50 at ${RATE} req/s`, (r) => r.direct.p50, 'ms'));
  console.log(row(`gateway p50 at ${RATE} req/s`, (r) => r.gateway.p50, 'ms'));
  console.log(row(`direct p99 at ${RATE} req/s`, (r) => r.direct.p99, 'ms'));
  console.log(row(`gateway p99 at ${RATE} req/s`, (r) => r.gateway.p99, 'ms'));
  console.log(row('direct full speed', (r) => r.directMax.rps, 'req/s'));
  console.log(row('gateway full speed', (r) => r.gatewayMax.rps, 'req/s'));
  console.log(row('trips CPU per request, direct', (r) => r.directMax.cpu.trips!, 'µs'));
  console.log(row('trips CPU per request, via gateway', (r) => r.gatewayMax.cpu.trips!, 'µs'));
  console.log(row('gateway CPU per request', (r) => r.gatewayMax.cpu.gateway!, 'µs'));
  console.log(row('bare proxy full speed', (r) => r.bareMax.rps, 'req/s'));
  console.log(row('bare proxy CPU per request', (r) => r.bareMax.cpu.bare!, 'µs'));
  console.log(
    `\ngateway adds p50 ${addedP50.toFixed(1)} ms (target <= 1: ${addedP50 <= 1 ? 'met' : 'NOT met'}), ` +
      `p99 ${addedP99.toFixed(1)} ms (target <= 3: ${addedP99 <= 3 ? 'met' : 'NOT met'}), ` +
      `keeps ${(ratio * 100).toFixed(0)}% of direct throughput (target >= 80%: ${ratio >= 0.8 ? 'met' : 'NOT met'}); ` +
      `the bare proxy keeps ${(bareRatio * 100).toFixed(0)}% on this machine`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  issuedRpc.unsubscribe();
  await bus.close();
  await database.drop();
}
