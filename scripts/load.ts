/**
 * The whole system at airline scale on this machine: `make load`.
 * Starts every service and the gateway with scripts/stack.ts on a database, NATS prefix, ports
 * and mail folder of its own, and the stack's own nats-server with a user per service; seeds LOAD_PILOTS pilots (5,000) with two months of trips each
 * straight into the services' tables through the seeds their packages export (auth's pilots,
 * trips' pilot directory and trips, swaps' read model), as their events would have left them; opens
 * LOAD_STREAMS event streams (2,000) through the gateway; then LOAD_CLIENTS clients (50) run the
 * main journeys for LOAD_SECONDS (60): log in (every tenth journey, staggered), list trips,
 * find swaps, offer and withdraw a trip, upload a roster. Each client has an address of its own behind a trusted proxy (TRUST_PROXY), as
 * pilots behind the ingress do. Prints throughput, p50/p95/p99 per step, errors, and each
 * process's resident memory and the machine's load average; stops everything and drops the
 * database. It asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDb, generateSigningKeys, PILOT_COOKIE, signPilotToken, type Db } from '@crewswap/kit';
import { createTestDatabase, testPilot, uniqueName } from '@crewswap/kit-testing';
import { seedLoadPilots } from '@crewswap/auth';
import { addDays, BASES, FLEETS, londonToday, type Pilot, type Trip } from '@crewswap/proto';
import { seedLoadReadModel } from '@crewswap/swaps';
import { seedLoadRosters } from '@crewswap/trips';
import { Agent, request } from 'undici';
import { startStack, type Stack } from './stack';

const PILOTS = Number(process.env.LOAD_PILOTS ?? 5000);
const STREAMS = Number(process.env.LOAD_STREAMS ?? 2000);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const PASSWORD = 'load-test-password';
/** auth's production cost (PASSWORD_HASH_COST): a login costs what it costs in production. */
const PASSWORD_HASH_COST = 15;
/** Each client logs in at its start and again every this many journeys (a new device, a new session). */
const LOGIN_EVERY = 10;
const STEPS = ['log in', 'list trips', 'find swaps', 'offer', 'withdraw', 'upload roster'] as const;
type Step = (typeof STEPS)[number];

const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

function makePilot(index: number, createdAt: string): Pilot {
  const rank = index % 2 === 0 ? 'CP' : 'FO';
  return testPilot({
    id: randomUUID(),
    employeeId: String(200000 + index),
    firstName: 'Load',
    lastName: `Pilot${index}`,
    email: `load.pilot${index}@fly.virgin.com`,
    phone: `+44770${String(index).padStart(7, '0')}`,
    rank,
    fleet: FLEETS[Math.floor(index / 2) % FLEETS.length]!,
    base: BASES[Math.floor(index / 8) % BASES.length]!,
    apic: rank === 'CP' || index % 3 === 0,
    ltc: rank === 'CP' && index % 6 === 0,
    testData: true,
    createdAt,
  });
}

/**
 * Pilots and trips as the services' own events would have left them: auth's pilots (one password
 * hash for all), trips' directory and trips (trips' demo rosters: two months, a fifth offered),
 * swaps' read model. Stamped older than any event, so every real change made during the run wins.
 */
async function seed(databaseUrl: string): Promise<Pilot[]> {
  const started = performance.now();
  const dbs: Db[] = ['auth', 'trips', 'swaps'].map((schema) => createDb(databaseUrl, schema));
  const [authDb, tripsDb, swapsDb] = dbs as [Db, Db, Db];
  try {
    const createdAt = new Date().toISOString();
    const pilots = Array.from({ length: PILOTS }, (_, index) => makePilot(index, createdAt));
    await seedLoadPilots(authDb, pilots, { password: PASSWORD, hashCost: PASSWORD_HASH_COST });
    const authDone = performance.now();
    const trips = await seedLoadRosters(tripsDb, pilots, londonToday());
    const tripsDone = performance.now();
    await seedLoadReadModel(swapsDb, pilots, trips);
    console.log(
      `seeded ${pilots.length} pilots and ${trips.length} trips (${trips.filter((trip) => trip.isSwappable).length} offered) in ${seconds(started)} ` +
        `(auth ${((authDone - started) / 1000).toFixed(1)} s, trips ${((tripsDone - authDone) / 1000).toFixed(1)} s, swaps ${seconds(tripsDone)})`,
    );
    return pilots;
  } finally {
    await Promise.all(dbs.map((db) => db.destroy()));
  }
}

/** A roster in the airline's calendar style: three trips ten weeks out, after the seeded ones. */
function rosterFile(today: string): Buffer {
  const day = (offset: number) => addDays(today, offset).replace(/-/g, '');
  const event = (uid: string, start: string, end: string, summary: string) =>
    ['BEGIN:VEVENT', `UID:${uid}`, `DTSTART:${start}`, `DTEND:${end}`, `SUMMARY:${summary}`, 'END:VEVENT'];
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//CrewSwap load run//EN'];
  for (const [n, offset] of [70, 76, 82].entries()) {
    lines.push(...event(`out-${n}`, `${day(offset)}T093000Z`, `${day(offset)}T171000Z`, 'VS 3 LHR-JFK B789'));
    lines.push(...event(`back-${n}`, `${day(offset + 2)}T213000Z`, `${day(offset + 3)}T063000Z`, 'VS 4 JFK-LHR B789'));
  }
  lines.push('END:VCALENDAR', '');
  return Buffer.from(lines.join('\r\n'));
}

/**
 * Sessions for these pilots written into auth's table, as their logins would have left them
 * (without a password hash each first): services accept only sessions auth issued. Answers each
 * pilot's session cookie.
 */
async function seedSessions(databaseUrl: string, pilots: Pilot[], privateKey: string): Promise<Map<string, string>> {
  const sessionIds = new Map(pilots.map((pilot) => [pilot.id, randomUUID()]));
  const auth = createDb(databaseUrl, 'auth');
  try {
    const at = new Date();
    const rows = pilots.map((pilot) => ({ id: sessionIds.get(pilot.id)!, pilot_id: pilot.id, login_at: at, last_activity_at: at }));
    for (let i = 0; i < rows.length; i += 1000) await auth('sessions').insert(rows.slice(i, i + 1000));
  } finally {
    await auth.destroy();
  }
  return new Map(pilots.map((pilot) => [pilot.id, `${PILOT_COOKIE}=${signPilotToken(privateKey, { sessionId: sessionIds.get(pilot.id)!, pilotId: pilot.id })}`]));
}

/** Opens an event stream through the gateway for each of these pilots, each with a session of its own; resolves once all are connected. */
async function openStreams(gateway: string, pilots: Pilot[], privateKey: string, databaseUrl: string): Promise<{ open(): number; close(): void }> {
  const cookies = await seedSessions(databaseUrl, pilots, privateKey);
  const agent = new HttpAgent({ keepAlive: false, maxSockets: Infinity });
  let open = 0;
  const requests: ReturnType<typeof httpRequest>[] = [];
  const connect = (pilot: Pilot) =>
    new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(`${gateway}/api/sse/events`, { agent, headers: { cookie: cookies.get(pilot.id)! } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`a stream answered ${response.statusCode}`));
        response.setEncoding('utf8');
        let connected = false;
        response.on('data', (chunk: string) => {
          if (!connected && chunk.includes('"connected"')) {
            connected = true;
            open += 1;
            resolve();
          }
        });
        response.on('close', () => {
          if (connected) open -= 1;
        });
      });
      outgoing.on('error', reject);
      outgoing.end();
      requests.push(outgoing);
    });
  for (let i = 0; i < pilots.length; i += 200) await Promise.all(pilots.slice(i, i + 200).map(connect));
  return {
    open: () => open,
    close() {
      for (const outgoing of requests) outgoing.destroy();
      agent.destroy();
    },
  };
}

interface Results {
  latencies: Record<Step, number[]>;
  errors: Record<Step, number>;
  /** The first few failures, to say what went wrong. */
  samples: string[];
}

/**
 * One pilot going through the journeys again and again until the run ends. `client` (its place
 * among the clients) staggers its logins: it starts signed in and logs in on every tenth journey
 * counted from its own offset, so that logins come at the same rate as one in ten journeys but
 * spread over the run, as pilots' do, instead of all fifty in the same instant.
 */
async function journeys(
  gateway: string,
  origin: string,
  pilot: Pilot,
  client: { index: number; address: string; cookie: string },
  roster: Buffer,
  until: number,
  results: Results,
): Promise<void> {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const boundary = `load-${randomUUID()}`;
  const upload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="roster"; filename="roster.ics"\r\nContent-Type: text/calendar\r\n\r\n`),
    roster,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  let { cookie } = client;
  const call = async (step: Step, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<unknown> => {
    const headers: Record<string, string> = { origin, 'x-forwarded-for': client.address, cookie };
    let payload: string | Buffer | undefined;
    if (step === 'upload roster') {
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      payload = upload;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const started = performance.now();
    try {
      const response = await request(`${gateway}${path}`, { method, headers, body: payload, dispatcher });
      const text = await response.body.text();
      results.latencies[step].push(performance.now() - started);
      if (response.statusCode >= 400) throw new Error(`${response.statusCode} ${text.slice(0, 200)}`);
      const setCookie = response.headers['set-cookie'];
      for (const line of [setCookie ?? []].flat()) if (line.startsWith(`${PILOT_COOKIE}=`)) cookie = line.split(';')[0]!;
      return text ? JSON.parse(text) : undefined;
    } catch (error) {
      results.errors[step] += 1;
      if (results.samples.length < 10) results.samples.push(`${step} (${pilot.email}): ${(error as Error).message}`);
      return undefined;
    }
  };
  try {
    for (let journey = 0; Date.now() < until; journey += 1) {
      // A pilot stays logged in for days; logging in again on every pass would make the run a
      // test of scrypt alone (a login costs more CPU than the rest of the journey together).
      if ((journey + client.index) % LOGIN_EVERY === LOGIN_EVERY - 1) await call('log in', 'POST', '/api/auth/login', { email: pilot.email, password: PASSWORD });
      const trips = (await call('list trips', 'GET', '/api/trips')) as Trip[] | undefined;
      const trip = trips?.find((candidate) => !candidate.isStandby && !candidate.isSwappable && candidate.startDate > londonToday());
      if (trip) {
        await call('find swaps', 'GET', `/api/trips/${trip.id}/matches`);
        // No alerts: 50 clients offering every few seconds would mail the whole airline.
        await call('offer', 'PATCH', `/api/trips/${trip.id}/swappable`, { isSwappable: true, skipNotification: true });
        await call('withdraw', 'PATCH', `/api/trips/${trip.id}/swappable`, { isSwappable: false });
      }
      await call('upload roster', 'POST', '/api/roster/upload');
    }
  } finally {
    await dispatcher.close();
  }
}

/** Resident memory of a process, from /proc (Linux), in MB. */
function rssMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time a process has used (user and system), from /proc (Linux), in seconds. */
function cpuSeconds(pid: number | undefined): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The CPU time of every process of one program together (Postgres: the server and its backends), in seconds. */
function programCpuSeconds(command: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) total += cpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** What each process, Postgres and the load's own clients used of the CPU: read before and after the run. */
function cpuNow(pids: Record<string, number | undefined>): Record<string, number> {
  const { user, system } = process.cpuUsage();
  return { ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)])), postgres: programCpuSeconds('postgres'), 'nats-server': programCpuSeconds('nats-server'), 'load clients': (user + system) / 1e6 };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

async function main(): Promise<void> {
  const openFiles = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Infinity);
  if (openFiles < STREAMS * 2 + 1000) console.log(`warning: open files limited to ${openFiles} (ulimit -n); ${STREAMS} streams need about ${STREAMS * 2 + 1000}`);
  // The stack's processes take their signing keys from here; the streams' tokens are signed with them.
  const keys = generateSigningKeys();
  process.env.JWT_PUBLIC_KEY = keys.publicKey;
  process.env.JWT_PRIVATE_KEY = keys.privateKey;
  const database = await createTestDatabase();
  const mailDir = mkdtempSync(join(tmpdir(), 'crewswap-load-mail-'));
  // Blocks of ten ports apart from the end-to-end runs' (21000-25000).
  const port = 26000 + Math.floor(Math.random() * 300) * 10;
  // Unused while the stack runs its own nats-server with a user per service (as production does).
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const natsPrefix = uniqueName('load');
  let stack: Stack | undefined;
  let streams: Awaited<ReturnType<typeof openStreams>> | undefined;
  try {
    const started = performance.now();
    stack = await startStack({
      databaseUrl: database.url,
      natsUrl,
      natsPrefix,
      gatewayPort: port,
      basePort: port,
      mailDir,
      seedDemo: false,
      logs: process.env.LOAD_LOGS ? 'prefix' : 'silent',
      // The clients stand behind a proxy on this machine, each with an address of its own.
      env: { LOG_LEVEL: 'warn', TRUST_PROXY: '127.0.0.1', TESTING_BUTTON_ENABLED: 'false' },
    });
    const gateway = `http://127.0.0.1:${port}`;
    console.log(`stack up at ${gateway} in ${seconds(started)}`);
    const pilots = await seed(database.url);
    const memoryBefore = Object.fromEntries(Object.entries(stack.pids()).map(([name, pid]) => [name, rssMb(pid)]));

    const streamsStarted = performance.now();
    streams = await openStreams(gateway, pilots.slice(CLIENTS, CLIENTS + STREAMS), keys.privateKey, database.url);
    console.log(`${streams.open()} event streams open through the gateway in ${seconds(streamsStarted)}`);

    const results: Results = {
      latencies: Object.fromEntries(STEPS.map((step) => [step, []])) as unknown as Results['latencies'],
      errors: Object.fromEntries(STEPS.map((step) => [step, 0])) as Results['errors'],
      samples: [],
    };
    const clients = pilots.slice(0, CLIENTS);
    const cookies = await seedSessions(database.url, clients, keys.privateKey);
    const roster = rosterFile(londonToday());
    const origin = stack.url;
    // The machine's own load says how far the figures are this system's: other work on the same cores queues it.
    const loadAtStart = loadavg()[0]!;
    const cpuBefore = cpuNow(stack.pids());
    const runStarted = performance.now();
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      clients.map((pilot, index) =>
        journeys(gateway, origin, pilot, { index, address: `10.20.${index >> 8}.${index & 255}`, cookie: cookies.get(pilot.id)! }, roster, until, results),
      ),
    );
    const elapsed = (performance.now() - runStarted) / 1000;
    const cpuAfter = cpuNow(stack.pids());
    const memory = Object.fromEntries(Object.entries(stack.pids()).map(([name, pid]) => [name, rssMb(pid)]));
    const streamsLeft = streams.open();

    const total = STEPS.reduce((sum, step) => sum + results.latencies[step].length, 0);
    const errors = STEPS.reduce((sum, step) => sum + results.errors[step], 0);
    console.log(`\n${CLIENTS} clients for ${elapsed.toFixed(0)} s, ${PILOTS} pilots, ${STREAMS} event streams open through the gateway`);
    console.log(`machine load average (1 min, ${cpus().length} cores): ${loadAtStart.toFixed(1)} as the clients started, ${loadavg()[0]!.toFixed(1)} as they ended`);
    console.log(`throughput: ${(total / elapsed).toFixed(0)} requests/s, ${(results.latencies['list trips'].length / elapsed).toFixed(1)} journeys/s; errors: ${errors}; streams still open at the end: ${streamsLeft}/${STREAMS}\n`);
    console.log('| step          | requests |  req/s | p50 ms | p95 ms | p99 ms | errors |');
    console.log('|---------------|----------|--------|--------|--------|--------|--------|');
    for (const step of STEPS) {
      const sorted = [...results.latencies[step]].sort((a, b) => a - b);
      const cells = [50, 95, 99].map((p) => percentile(sorted, p).toFixed(1).padStart(6));
      console.log(`| ${step.padEnd(13)} | ${String(sorted.length).padStart(8)} | ${(sorted.length / elapsed).toFixed(1).padStart(6)} | ${cells.join(' | ')} | ${String(results.errors[step]).padStart(6)} |`);
    }
    console.log('\n| process        | RSS before streams MB | RSS at the end MB |');
    console.log('|----------------|-----------------------|-------------------|');
    for (const [name, mb] of Object.entries(memory)) {
      console.log(`| ${name.padEnd(14)} | ${memoryBefore[name]!.toFixed(0).padStart(21)} | ${mb.toFixed(0).padStart(17)} |`);
    }
    // Where the cores went: with every client waiting for its answer, a step's time is mostly the queue for them.
    console.log(`\n| process        | CPU s in the run | CPU ms a request |`);
    console.log('|----------------|------------------|------------------|');
    const used = Object.entries(cpuAfter).map(([name, after]) => [name, after - cpuBefore[name]!] as const).sort((a, b) => b[1] - a[1]);
    for (const [name, cpu] of used) console.log(`| ${name.padEnd(14)} | ${cpu.toFixed(1).padStart(16)} | ${((cpu * 1000) / total).toFixed(2).padStart(16)} |`);
    const busy = used.reduce((sum, [, cpu]) => sum + cpu, 0);
    console.log(`all of them: ${busy.toFixed(1)} s of CPU in ${elapsed.toFixed(0)} s on ${cpus().length} cores (${((busy / elapsed / cpus().length) * 100).toFixed(0)}% of the machine)`);
    if (results.samples.length > 0) console.log(`\nfirst failures:\n  ${results.samples.join('\n  ')}`);
    // The stack's nats-server gives each service only its own subjects, as production does.
    const violations = stack.natsViolations();
    if (violations.length > 0) console.log(`\nNATS refused ${violations.length} publish or subscribe:\n  ${violations.slice(0, 5).join('\n  ')}`);
    if (errors > 0 || streamsLeft < STREAMS || violations.length > 0) process.exitCode = 1;
  } finally {
    streams?.close();
    await stack?.stop();
    await database.drop();
    // The services' JetStream streams lived in the stack's own nats-server (scripts/nats-users.ts),
    // whose store the stack removes at stop: nothing is left on the shared NATS to clean up.
    rmSync(mailDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
