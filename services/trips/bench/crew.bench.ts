/**
 * Latency of what a pilot reads of other pilots' trips, with 10,000 pilots holding 40 trips each,
 * over real HTTP on loopback: Crew on Trip (target p95 < 10 ms), Master Calendar and Crossover
 * Calendar (target p95 < 50 ms), plus the trip list with crew. Uses its own temporary database
 * (dropped at the end) and NATS prefix. Prints figures; asserts nothing. Besides the client's
 * latency it prints the service's own time (Fastify's elapsed time) and the process's CPU time per
 * request (service and client together): on a shared, loaded machine the CPU time is the steadier
 * figure. Each pilot holds one session cookie, as an app does; the Master Calendar is also read
 * again with its ETag (the browser's repeat opening, a 304).
 * Run: npx tsx bench/crew.bench.ts   (BENCH_PILOTS, BENCH_REQUESTS to change the size; BENCH_KEEP=1
 * keeps the database and prints its URL, to look at query plans)
 *
 * The data: pilots alternate CP/FO over the four fleets (1,250 per rank and fleet), all with
 * Master Roster on; each pilot's 40 trips are 3 days long every 4 days, starting on one of four
 * staggered days, on one of 300 flight pairs to one of 60 airports (5 flights each), so a flight
 * and date carries about 8 pilots and an airport sees about 40 crews a day.
 */
import { randomUUID } from 'node:crypto';
import { Agent, get } from 'node:http';
import { PILOT_COOKIE, deleteStreams, signPilotToken } from '@crewswap/kit';
import { TEST_KEYS } from '@crewswap/kit-testing';
import { masterCalendarWindow } from '@crewswap/proto';
import { PILOTS, TRIPS_PER_PILOT, seed, startBenchService } from './seed';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const FLIGHTS = 300;
const AIRPORTS = 60;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const { database, service, db, today } = await startBenchService();

try {
  const airports: string[] = (await db('iata_codes').whereNotIn('iata_code', ['LHR', 'MAN']).orderBy('iata_code').limit(AIRPORTS).select('iata_code')).map(
    (row: { iata_code: string }) => row.iata_code,
  );
  await seed(db, {
    pilots: `INSERT INTO pilots (id, employee_id, first_name, last_name, rank, fleet, base, apic, ltc, usual_req, test_data, search_day_range, profile, occurred_at)
       SELECT gen_random_uuid(), lpad(g::text, 6, '0'), 'Bench' || (g % 97), 'Pilot' || g, CASE WHEN g % 2 = 0 THEN 'CP' ELSE 'FO' END,
              (ARRAY['A330','A350','B787','SFF'])[(g / 2) % 4 + 1], 'LHR', true, false, true, true, NULL,
              jsonb_build_object('email', 'bench' || g || '@fly.virgin.com', 'phone', '+4477009' || lpad(g::text, 5, '0')), now()
       FROM generate_series(1, ?) AS g`,
    trips: `WITH numbered AS (SELECT id, fleet, row_number() OVER (ORDER BY employee_id) AS n FROM pilots)
       INSERT INTO trips (pilot_id, flight_no_start, flight_no_end, aircraft, route, start_date, end_date, is_swappable, ics_description)
       SELECT p.id, 'VS' || lpad((f * 2 + 1)::text, 3, '0'), 'VS' || lpad((f * 2 + 2)::text, 3, '0'),
              CASE WHEN p.fleet = 'SFF' THEN 'A330' ELSE p.fleet END, (?::text[])[f % ? + 1],
              ?::date - 2 + (p.n % 4)::int + g * 4, ?::date + (p.n % 4)::int + g * 4, g % 5 = 0, 'bench duty'
       FROM numbered p CROSS JOIN generate_series(0, ?) AS g
       CROSS JOIN LATERAL (SELECT (((p.n / 4) * 7 + g * 13) % ?)::int AS f) AS flight`,
    tripBindings: [airports, AIRPORTS, today, today, TRIPS_PER_PILOT - 1, FLIGHTS],
  });

  const pilots: { id: string; rank: string; fleet: string }[] = await db('pilots').select('id', 'rank', 'fleet');
  const someTrips: { id: string; pilot_id: string }[] = await db('trips')
    .where('start_date', '>=', today)
    .whereIn('pilot_id', pilots.slice(0, 2000).map((pilot) => pilot.id))
    .select('id', 'pilot_id')
    .limit(5000);
  const window = masterCalendarWindow(today);
  console.log(`window ${window.from} to ${window.to}; ${airports.length} airports`);
  const crewSizes = (await db.raw(
    `SELECT avg(n)::numeric(6,1) AS avg, max(n) AS max FROM (SELECT count(*) AS n FROM trips GROUP BY flight_no_start, start_date) AS c`,
  )) as { rows: { avg: string; max: number }[] };
  console.log(`pilots per flight and date: average ${crewSizes.rows[0]!.avg}, most ${crewSizes.rows[0]!.max}`);

  // The service's own time per request (Fastify's, from routing to the last byte written).
  let serverTimes: number[] = [];
  service.app.addHook('onResponse', async (_request, reply) => {
    serverTimes.push(reply.elapsedTime);
  });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // A pilot's app holds one session cookie; signed here once per pilot, outside the timings, so the
  // figures are the service's (a fresh token per request timed the bench's own ES256 signing).
  const cookies = new Map<string, string>();
  const cookieFor = (pilotId: string) => {
    const cookie = cookies.get(pilotId) ?? `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId })}`;
    cookies.set(pilotId, cookie);
    return cookie;
  };
  for (const pilot of pilots) cookieFor(pilot.id);


  // node:http rather than fetch: fetch would gunzip, timing the client's decoding of a ~10 MB
  // calendar; this reads the bytes as sent (a browser decodes them off the service's clock).
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  interface Answer {
    status: number;
    etag: string | undefined;
    bytes: number;
  }
  const fetch = (url: string, options: { headers: Record<string, string> }): Promise<Answer> =>
    new Promise((resolve, reject) => {
      get(url, { agent, headers: { 'accept-encoding': 'gzip', ...options.headers } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, bytes }));
        response.on('error', reject);
      }).on('error', reject);
    });

  interface Measured {
    samples: number[];
    server: number[];
    bytes: number;
    cpuMs: number;
  }
  async function measure(count: number, request: (i: number) => Promise<Answer>, status = 200): Promise<Measured> {
    const samples: number[] = [];
    let bytes = 0;
    serverTimes = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const response = await request(i);
      bytes += response.bytes;
      samples.push(performance.now() - started);
      if (response.status !== status) throw new Error(`unexpected ${response.status} at request ${i}`);
    }
    const used = process.cpuUsage(cpu);
    return { samples: samples.sort((a, b) => a - b), server: [...serverTimes].sort((a, b) => a - b), bytes: bytes / count, cpuMs: (used.user + used.system) / 1000 / count };
  }

  const pilotAt = (i: number) => pilots[(i * 7919) % pilots.length]!;
  const etags = new Map<string, string>();
  const routes: Record<string, { target: number; status?: number; request: (i: number) => Promise<Answer> }> = {
    'GET /api/trips/{id}/pilots': {
      target: 10,
      request: (i) => {
        const trip = someTrips[(i * 31) % someTrips.length]!;
        return fetch(`${base}/api/trips/${trip.id}/pilots`, { headers: { cookie: cookieFor(trip.pilot_id) } });
      },
    },
    'GET /api/trips?includeCrew=true': {
      target: 50,
      request: (i) => fetch(`${base}/api/trips?includeCrew=true`, { headers: { cookie: cookieFor(pilotAt(i).id) } }),
    },
    'GET /api/master-calendar/{rank}/{fleet}': {
      target: 50,
      request: (i) => {
        const pilot = pilotAt(i);
        return fetch(`${base}/api/master-calendar/${pilot.rank}/${pilot.fleet}`, { headers: { cookie: cookieFor(pilot.id) } });
      },
    },
    'GET /api/master-calendar again (304)': {
      target: 50,
      status: 304,
      request: async (i) => {
        // The browser's repeat opening: its cached copy's ETag answers 304 while the calendar is unchanged.
        const pilot = pilotAt(i);
        const url = `${base}/api/master-calendar/${pilot.rank}/${pilot.fleet}`;
        let etag = etags.get(url);
        if (etag === undefined) {
          etag = (await fetch(url, { headers: { cookie: cookieFor(pilot.id) } })).etag ?? '';
          etags.set(url, etag);
        }
        return fetch(url, { headers: { cookie: cookieFor(pilot.id), 'if-none-match': etag } });
      },
    },
    'GET /api/crossover-trips': {
      target: 50,
      request: (i) => fetch(`${base}/api/crossover-trips`, { headers: { cookie: cookieFor(pilotAt(i).id) } }),
    },
  };

  {
    const pilot = pilots[0]!;
    const started = performance.now();
    const decoded = await globalThis.fetch(`${base}/api/master-calendar/${pilot.rank}/${pilot.fleet}`, { headers: { cookie: cookieFor(pilot.id) } });
    const size = (await decoded.arrayBuffer()).byteLength;
    console.log(`master calendar ${pilot.rank}/${pilot.fleet}: ${(size / 1024).toFixed(0)} KB of JSON, first (cold: built, serialized and gzipped) answer ${(performance.now() - started).toFixed(0)} ms`);
  }

  const results: [string, number, Measured][] = [];
  for (const [route, { target, status, request }] of Object.entries(routes)) {
    // Warm up connections, caches and the JIT before measuring, with the measured pilots: a pilot's
    // app sends its one token many times, so the guard has checked its signature (once, ~0.5 ms).
    await measure(REQUESTS, request, status);
    results.push([route, target, await measure(REQUESTS, request, status)]);
  }

  console.log(`\n${PILOTS} pilots x ${TRIPS_PER_PILOT} trips, sequential requests over loopback HTTP (client fetch, gzip accepted)`);
  console.log('KB: bytes on the wire; server: Fastify time in the service; CPU: the process (service and client) per request\n');
  console.log('| route                                   | requests | avg KB | p50 ms | p95 ms | p99 ms | max ms | server p50/p95 ms | CPU ms/req | target p95 | met |');
  console.log('|-----------------------------------------|----------|--------|--------|--------|--------|--------|-------------------|------------|------------|-----|');
  for (const [route, target, { samples, server, bytes, cpuMs }] of results) {
    const p95 = percentile(samples, 95);
    const serverText = `${percentile(server, 50).toFixed(2)} / ${percentile(server, 95).toFixed(2)}`;
    console.log(
      `| ${route.padEnd(39)} | ${String(samples.length).padStart(8)} | ${(bytes / 1024).toFixed(0).padStart(6)} | ${percentile(samples, 50).toFixed(2).padStart(6)} | ${p95.toFixed(2).padStart(6)} | ${percentile(samples, 99).toFixed(2).padStart(6)} | ${samples.at(-1)!.toFixed(2).padStart(6)} | ${serverText.padStart(17)} | ${cpuMs.toFixed(2).padStart(10)} | ${`< ${target} ms`.padEnd(10)} | ${(p95 < target ? 'yes' : 'NO').padEnd(3)} |`,
    );
  }
} finally {
  await deleteStreams(service.runtime.bus);
  await service.close();
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${database.url}`);
  else await database.drop();
}
