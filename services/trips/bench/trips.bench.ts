/**
 * Latency of GET /api/trips and POST /api/trips with 10,000 pilots holding 40 trips each, over
 * real HTTP on loopback. Uses its own temporary database (dropped at the end) and NATS prefix.
 * Run: npx tsx bench/trips.bench.ts   (target: p95 under 10 ms for both)
 */
import { randomUUID } from 'node:crypto';
import { PILOT_COOKIE, deleteStreams, signPilotToken } from '@crewswap/kit';
import { databaseCpuMs, databaseCpuSince, processCpuMs, TEST_KEYS } from '@crewswap/kit-testing';
import pg from 'pg';
import { addDays } from '@crewswap/proto';
import { PILOTS, TRIPS_PER_PILOT, seed, startBenchService } from './seed';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Times every statement sent to Postgres from now until stop(), grouped by its SQL (whitespace
 * folded), at the driver: BEGIN and COMMIT included, which knex's query events leave untimed.
 */
function timeStatements() {
  const bySql = new Map<string, number[]>();
  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const original = pg.Client.prototype.query as unknown as Query;
  const timed: Query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text ?? '';
    const callback = args.at(-1);
    if (typeof callback !== 'function') return original.apply(this, args);
    const at = performance.now();
    args[args.length - 1] = (...results: unknown[]) => {
      const sql = text.replace(/\s+/g, ' ').slice(0, 60);
      bySql.set(sql, [...(bySql.get(sql) ?? []), performance.now() - at]);
      return (callback as (...r: unknown[]) => unknown)(...results);
    };
    return original.apply(this, args);
  };
  (pg.Client.prototype as unknown as { query: Query }).query = timed;
  return {
    bySql,
    stop() {
      (pg.Client.prototype as unknown as { query: Query }).query = original;
    },
  };
}

const { database, service, db, today } = await startBenchService();

try {
  await seed(db, {
    pilots: `INSERT INTO pilots (id, employee_id, first_name, last_name, rank, fleet, base, apic, ltc, usual_req, test_data, search_day_range, profile, occurred_at)
       SELECT gen_random_uuid(), lpad(g::text, 6, '0'), 'Bench', 'Pilot' || g, CASE WHEN g % 2 = 0 THEN 'CP' ELSE 'FO' END,
              (ARRAY['A330','A350','B787','A350'])[g % 4 + 1], 'LHR', true, false, true, true, NULL, '{}'::jsonb, now()
       FROM generate_series(1, ?) AS g`,
    // Trips every 4 days from tomorrow, 3 days long.
    trips: `INSERT INTO trips (pilot_id, flight_no_start, flight_no_end, aircraft, route, start_date, end_date, is_swappable, ics_description)
       SELECT p.id, 'VS003', 'VS004', p.fleet, 'JFK', ?::date + 1 + g * 4, ?::date + 3 + g * 4, g % 5 = 0, 'VS3 LHR 1105 JFK 1355'
       FROM pilots p CROSS JOIN generate_series(0, ?) AS g`,
    tripBindings: [today, today, TRIPS_PER_PILOT - 1],
  });

  const ids: string[] = (await db('pilots').select('id')).map((row: { id: string }) => row.id);
  const somePilot = ids[0]!;
  for (const [name, sql, bindings] of [
    ['list', 'SELECT * FROM trips WHERE pilot_id = ? ORDER BY start_date, end_date, flight_no_start', [somePilot]],
    ['overlap', 'SELECT * FROM trips WHERE pilot_id = ? AND start_date <= ? AND end_date >= ? ORDER BY start_date LIMIT 1', [somePilot, addDays(today, 30), addDays(today, 28)]],
    ['purge', 'SELECT count(*) FROM trips WHERE end_date < ?', [addDays(today, -7)]],
  ] as const) {
    const plan = (await db.raw(`EXPLAIN ANALYZE ${sql}`, bindings as unknown as string[])) as { rows: { 'QUERY PLAN': string }[] };
    console.log(`\nEXPLAIN ${name}:\n  ${plan.rows.map((row) => row['QUERY PLAN']).join('\n  ')}`);
  }

  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // Every pilot's session token, signed before anything is timed: logging in is not the request.
  const cookies = new Map(ids.map((pilotId) => [pilotId, `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId })}`]));
  const cookieFor = (pilotId: string) => cookies.get(pilotId)!;

  async function measure(count: number, request: (i: number) => Promise<Response>, expected: number): Promise<number[]> {
    const samples: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const response = await request(i);
      await response.arrayBuffer();
      samples.push(performance.now() - started);
      if (response.status !== expected) throw new Error(`unexpected ${response.status} at request ${i}`);
    }
    return samples.sort((a, b) => a - b);
  }

  const get = (i: number) => fetch(`${base}/api/trips`, { headers: { cookie: cookieFor(ids[(i * 7919) % ids.length]!) } });
  // Each POST goes to a different pilot, on dates after their 40 trips.
  const firstFree = addDays(today, 1 + TRIPS_PER_PILOT * 4 + 2);
  const post = (offset: number) => (i: number) =>
    fetch(`${base}/api/trips`, {
      method: 'POST',
      headers: { cookie: cookieFor(ids[(offset + i) % ids.length]!), 'content-type': 'application/json' },
      body: JSON.stringify({ flightNoStart: 'VS011', flightNoEnd: 'VS012', route: 'BOS', startDate: addDays(firstFree, offset / 1000), endDate: addDays(firstFree, offset / 1000 + 2) }),
    });

  // Warm up connections, caches and the JIT before measuring.
  await measure(300, get, 200);
  await measure(300, post(0), 201);
  // CPU per request, steady however loaded the machine: this process (the app and the bench's
  // HTTP client) and the Postgres backends of the bench database, from /proc.
  const cpuNow = async () => ({ node: processCpuMs(), db: await databaseCpuMs(db) });
  const cpu: Record<string, { node: number; db: number }> = {};
  let before = await cpuNow();
  const getSamples = await measure(REQUESTS, get, 200);
  let after = await cpuNow();
  cpu['GET /api/trips'] = { node: (after.node - before.node) / getSamples.length, db: databaseCpuSince(before.db, after.db) / getSamples.length };
  // Where a POST's time goes: every statement it and the outbox relay run, timed at the driver.
  const statements = timeStatements();
  before = await cpuNow();
  const postSamples = await measure(Math.min(REQUESTS, ids.length - 300), (i) => post(1000)(i + 300), 201);
  after = await cpuNow();
  statements.stop();
  cpu['POST /api/trips'] = { node: (after.node - before.node) / postSamples.length, db: databaseCpuSince(before.db, after.db) / postSamples.length };
  const results = { 'GET /api/trips': getSamples, 'POST /api/trips': postSamples };

  console.log(`\n${PILOTS} pilots x ${TRIPS_PER_PILOT} trips, sequential requests over loopback HTTP\n`);
  console.log('| route           | requests | p50 ms | p95 ms | p99 ms | max ms | p95 < 10 ms | CPU ms node (app + client) | CPU ms postgres |');
  console.log('|-----------------|----------|--------|--------|--------|--------|-------------|----------------------------|-----------------|');
  for (const [route, samples] of Object.entries(results)) {
    const p95 = percentile(samples, 95);
    console.log(
      `| ${route.padEnd(15)} | ${String(samples.length).padStart(8)} | ${percentile(samples, 50).toFixed(2).padStart(6)} | ${p95.toFixed(2).padStart(6)} | ${percentile(samples, 99).toFixed(2).padStart(6)} | ${samples.at(-1)!.toFixed(2).padStart(6)} | ${(p95 < 10 ? 'yes' : 'NO').padEnd(11)} | ${cpu[route]!.node.toFixed(2).padStart(26)} | ${cpu[route]!.db.toFixed(2).padStart(15)} |`,
    );
  }
  console.log(`\nPOST /api/trips, per statement (${postSamples.length} requests; the outbox relay's statements run beside them)\n`);
  console.log('| statement                                                    | per POST | mean ms | p95 ms | total s |');
  console.log('|--------------------------------------------------------------|----------|---------|--------|---------|');
  for (const [sql, times] of [...statements.bySql].sort((a, b) => sum(b[1]) - sum(a[1]))) {
    times.sort((a, b) => a - b);
    console.log(
      `| ${sql.padEnd(60)} | ${(times.length / postSamples.length).toFixed(2).padStart(8)} | ${(sum(times) / times.length).toFixed(2).padStart(7)} | ${percentile(times, 95).toFixed(2).padStart(6)} | ${(sum(times) / 1000).toFixed(2).padStart(7)} |`,
    );
  }
  console.log(`\nPOST /api/trips wall time ${(sum(postSamples) / 1000).toFixed(2)} s in all; the rest of it is HTTP, JSON, validation and the event loop.`);
} finally {
  await deleteStreams(service.runtime.bus);
  await service.close();
  await database.drop();
}
