/**
 * Matching at airline scale: `npm run bench -w @crewswap/swaps [-- --explain] [--profile DIR] [--pilots N] [--requests N] [--clients N]`.
 * Loads pilots with 40 trips each (20% offered, every trip with duty times) straight into the read
 * model of a temporary database with bulk inserts, then prints Find swaps over HTTP on loopback
 * against the swaps service in a process of its own (bench/find-swaps-server.ts): a first page of
 * 50 as the app asks, then the whole list, each a burst of --requests from --clients at once, with
 * p50/p95/p99 and the service process's CPU per request (/proc/<pid>/stat, issue 58: at most 1 ms
 * a page). It runs twice: with the flight time limitations check as it runs (every trip timed), and
 * then with every trip's times taken away, where each row's check finds 'unknown' at once: the
 * check's cost is the difference (issue 55: at most 20%). Then the time to compute the recipients
 * of one offer. Targets: matches p95 < 20 ms, recipients p95 < 200 ms. It prints figures; it asserts
 * nothing. --rosters-held N sets the service's ROSTER_CACHE_PILOTS (2,000). --explain prints the plans; --profile writes each service process's CPU profile to DIR;
 * --before DIR also runs, beside the first, the service of a copy of the repository in DIR (its
 * services/swaps/src and what it imports through DIR/node_modules): the code before a change.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { deleteStreams, fixedClock, type Db } from '@crewswap/kit';
import { benchBaseConfig, createTestDatabase, databaseCpuMs, databaseCpuSince, processCpuMs, testPilot, testTrip } from '@crewswap/kit-testing';
import { addDays, tripWindow, type Aircraft, type Fleet, type Pilot, type Sector, type Trip } from '@crewswap/proto';
import { createApp } from '../src/app';
import { offersQuery, recipientsQuery, type PilotChange, type TripChange } from '../src/data/read-model';
import { urgentDates } from '../src/rules/swap-rule';

const { values: flags } = parseArgs({
  options: {
    explain: { type: 'boolean', default: false },
    pilots: { type: 'string', default: '10000' },
    trips: { type: 'string', default: '40' },
    requests: { type: 'string', default: '2000' },
    profile: { type: 'string' },
    before: { type: 'string' },
    offers: { type: 'string', default: '200' },
    clients: { type: 'string', default: '10' },
    'rosters-held': { type: 'string', default: '2000' },
  },
});
const PILOTS = Number(flags.pilots);
const TRIPS_PER_PILOT = Number(flags.trips);
const REQUESTS = Number(flags.requests);
const OFFER_SAMPLES = Number(flags.offers);
const CLIENTS = Number(flags.clients);
/** Rosters the service holds for the check (its ROSTER_CACHE_PILOTS; the service's default unless --rosters-held). */
const ROSTERS_HELD = Number(flags['rosters-held']);
/** The page the app asks for. */
const PAGE = 50;
const TODAY = '2026-11-01';
const NOW = new Date(`${TODAY}T12:00:00Z`);

// A fixed seed: every run loads the same airline.
let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

function fleetFor(roll: number): Fleet {
  return roll < 0.25 ? 'A330' : roll < 0.6 ? 'A350' : roll < 0.9 ? 'B787' : 'SFF';
}

function makePilot(index: number): Pilot {
  const rank = random() < 0.5 ? 'CP' : 'FO';
  // The seeded random() is called in this order: keep it, or every run's data changes.
  return testPilot({
    employeeId: String(100000 + index),
    firstName: 'Bench',
    lastName: `Pilot${index}`,
    email: `bench${index}@fly.virgin.com`,
    phone: `+44770${String(index).padStart(7, '0')}`,
    rank,
    fleet: fleetFor(random()),
    base: random() < 0.8 ? 'LHR' : 'MAN',
    ltc: rank === 'CP' && random() < 0.1,
    usualReq: random() < 0.9,
    testData: true,
    searchDayRange: random() < 0.2 ? between(0, 10) : null,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
}

/** A long-haul roster: trips of 1-5 days with 2-6 days off between (about 4 a month), from a week ago on. */
function makeTrips(pilot: Pilot): Trip[] {
  const trips: Trip[] = [];
  let day = addDays(TODAY, between(-7, 0));
  for (let n = 0; n < TRIPS_PER_PILOT; n += 1) {
    const length = between(1, 5);
    const standby = random() < 0.05;
    const offered = !standby && random() < 0.2;
    const aircraft: Aircraft | null = standby ? null : pilot.fleet === 'SFF' ? pick(['A330', 'A350', 'SFF'] as const) : pilot.fleet;
    const ranged = offered && random() < 0.3;
    const destination = standby ? 'SBY' : pick(['JFK', 'LAX', 'SEA', 'BOS', 'MCO', 'JNB', 'DEL', 'HKG', 'SFO']);
    const flightNoStart = standby ? 'VS000' : `VS${String(between(1, 299)).padStart(3, '0')}`;
    const flightNoEnd = standby ? 'VS000' : `VS${String(between(1, 299)).padStart(3, '0')}`;
    trips.push(
      testTrip({
        pilotId: pilot.id,
        flightNoStart,
        flightNoEnd,
        aircraft,
        route: destination,
        ...dutyTimes(day, length, standby, destination, flightNoStart, flightNoEnd),
        startDate: day,
        endDate: addDays(day, length - 1),
        isSwappable: offered,
        training: pilot.ltc && !standby && random() < 0.1,
        swapDescription: offered && random() < 0.5 ? 'Any similar trip considered' : null,
        searchStartDate: ranged ? addDays(day, -2) : null,
        searchEndDate: ranged ? addDays(day, 2) : null,
        isStandby: standby,
        createdAt: '2026-10-01T00:00:00.000Z',
        updatedAt: '2026-10-01T00:00:00.000Z',
      }),
    );
    day = addDays(day, length + between(2, 6));
  }
  return trips;
}

/**
 * A trip's duty times (issue 55), so that Find swaps' flight time limitations check has rosters to
 * judge: a standby a 12-hour duty at home, a day trip a 10-hour duty, a longer trip out on its first
 * day and back on its last (a sector of 7-10 hours each way), report and release from the sectors.
 * Drawn from the trip's own fields, not the seeded random(), so the airline stays the same.
 */
function dutyTimes(day: string, length: number, standby: boolean, destination: string, outbound: string, inbound: string): Pick<Trip, 'reportAt' | 'releaseAt' | 'sectors'> {
  const at = (date: string, hour: number) => new Date(Date.parse(`${date}T00:00:00Z`) + hour * 3_600_000).toISOString();
  if (standby) return { reportAt: at(day, 6), releaseAt: at(day, 18), sectors: null };
  if (length === 1) return { reportAt: at(day, 7), releaseAt: at(day, 17), sectors: null };
  const block = 7 + (Number(outbound.slice(2)) % 4);
  const last = addDays(day, length - 1);
  const sectors: Sector[] = [
    { flightNo: outbound, from: 'LHR', to: destination, departAt: at(day, 10), arriveAt: at(day, 10 + block), positioning: false },
    { flightNo: inbound, from: destination, to: 'LHR', departAt: at(last, 8), arriveAt: at(last, 8 + block), positioning: false },
  ];
  return { reportAt: null, releaseAt: null, sectors };
}

/** A Find swaps query as the app's request makes it: the trip's own window, the whole list, Urgent by the bench's clock. */
function queryOf(pilot: Pilot, trip: Trip) {
  return {
    asker: pilot,
    trip: { ...trip, aircraft: trip.aircraft! },
    window: tripWindow(trip, pilot.searchDayRange, 4),
    askerOtherTrips: [],
    settingDays: 4,
    urgent: urgentDates(NOW),
    page: null,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const config = { ...benchBaseConfig(database.url), PORT: 0, SETTINGS_RPC_TIMEOUT_MS: 0, TRIPS_CATCH_UP_MS: 0, OFFER_ALERT_MAX_AGE_MINUTES: 1440, ROSTER_CACHE_PILOTS: ROSTERS_HELD, APP_ORIGIN: 'http://localhost:8080', PRODUCT_NAME: 'CrewSwap' };
  const service = await createApp(config, { clock: fixedClock(`${TODAY}T12:00:00Z`) });
  const { db } = service.runtime;
  try {
    // Load: pilots and trips in multi-row upserts through the read model's own apply path.
    const loadStarted = performance.now();
    const stamp = { version: 1, at: new Date('2026-10-01T00:00:00Z') };
    const pilots: Pilot[] = [];
    const samples: { pilot: Pilot; trip: Trip }[] = [];
    const offers: Trip[] = [];
    const tripsOf = new Map<string, Trip[]>();
    const otherTripsOf = (trip: Trip) =>
      tripsOf.get(trip.pilotId)!.filter((other) => other.id !== trip.id).map((other) => ({ from: other.startDate, to: other.endDate }));
    for (let first = 0; first < PILOTS; first += 25) {
      const batch = Array.from({ length: Math.min(25, PILOTS - first) }, (_, i) => makePilot(first + i));
      pilots.push(...batch);
      await service.readModel.applyPilotChanges(db, batch.map((pilot): PilotChange => ({ kind: 'profile', pilot, stamp })));
      const trips = batch.flatMap(makeTrips);
      for (const trip of trips) tripsOf.set(trip.pilotId, [...(tripsOf.get(trip.pilotId) ?? []), trip]);
      for (let i = 0; i < trips.length; i += 1000) {
        await service.readModel.applyTripChanges(db, trips.slice(i, i + 1000).map((trip): TripChange => ({ kind: 'trip', trip, stamp })));
      }
      for (const trip of trips) {
        if (!trip.isStandby && trip.startDate >= TODAY && random() < 0.01) samples.push({ pilot: batch.find((p) => p.id === trip.pilotId)!, trip });
        if (trip.isSwappable && trip.startDate >= TODAY && random() < 0.01) offers.push(trip);
      }
    }
    // What autovacuum would have done by now to tables this size: statistics, hint bits, visibility map.
    await db.raw('VACUUM ANALYZE pilots');
    await db.raw('VACUUM ANALYZE trips');
    await db.raw('VACUUM ANALYZE offers');
    const counts = await service.readModel.counts();
    console.log(`Loaded ${counts.pilots} pilots, ${counts.trips} trips (${counts.offers} offered) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    if (flags.explain) await explain(db, pilots, samples[0]!, offers[0]!);

    // Find swaps: GET /api/trips/{id}/matches through HTTP on loopback, to the swaps service in a
    // process of its own (bench/find-swaps-server.ts), from a client in a worker thread of this one
    // (bench/http-client.mjs): the service's CPU time is then its own, read from /proc.
    // Each pilot's session token is signed by the service process before anything is timed
    // (logging in is not Find swaps); the asks name the pilot, and take its cookie when sent.
    const asks = (n: number, suffix: string) =>
      Array.from({ length: n }, () => {
        const { pilot, trip } = samples[Math.floor(random() * samples.length)]!;
        return { path: `/api/trips/${trip.id}/matches${suffix}`, pilotId: pilot.id };
      });
    const client = (base: string, clients: number, list: { path: string; cookie: string }[], countOffers = false) =>
      new Promise<{ latencies: number[]; found: number; mutual: number; seconds: number }>((resolve, reject) => {
        const workerData = { base, asks: list, clients, count: list.length, countOffers };
        const worker = new Worker(new URL('./http-client.mjs', import.meta.url), { workerData });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    // The same asks for both runs, so that they differ by the check alone.
    const shapes = [
      { name: `limit=${PAGE}`, suffix: `?limit=${PAGE}` },
      { name: 'whole list', suffix: '' },
    ].map((shape) => ({ ...shape, asks: asks(REQUESTS, shape.suffix) }));

    /** One run against a fresh service process: each shape's burst, its latencies and the service's (and Postgres's) CPU per request. */
    const run = async (label: string, app?: string) => {
      const execArgv = ['--import', 'tsx', ...(flags.profile ? ['--cpu-prof', `--cpu-prof-dir=${flags.profile}/${label}`] : [])];
      const child = fork(new URL('./find-swaps-server.ts', import.meta.url), [], {
        execArgv,
        env: { ...process.env, BENCH_CONFIG: JSON.stringify(config), BENCH_NOW: NOW.toISOString(), ...(app ? { BENCH_APP: app } : {}) },
      });
      const pilotIds = [...new Set(samples.map(({ pilot }) => pilot.id))];
      child.send(pilotIds);
      const [started] = (await once(child, 'message')) as [{ address: string; offers: number; cookies: string[] }];
      const cookieFor = new Map(pilotIds.map((id, i) => [id, started.cookies[i]!]));
      const withCookies = (list: { path: string; pilotId: string }[]) => list.map(({ path, pilotId }) => ({ path, cookie: cookieFor.get(pilotId)! }));
      try {
        // Warm-up: every sample asked once in each shape, so each pilot's token has been checked
        // once, as a pilot's app sends one token many times (the check is cached), and the JIT has settled.
        for (const shape of shapes) await client(started.address, 1, withCookies(samples.map(({ pilot, trip }) => ({ path: `/api/trips/${trip.id}/matches${shape.suffix}`, pilotId: pilot.id }))));
        const figures = [];
        for (const shape of shapes) {
          // Offers are counted in a short run of their own: counting is the client's work, on this machine's cores.
          const counted = await client(started.address, 1, withCookies(shape.asks.slice(0, 200)), true);
          const before = { service: processCpuMs(child.pid), db: await databaseCpuMs(db) };
          const load = await client(started.address, CLIENTS, withCookies(shape.asks));
          const after = { service: processCpuMs(child.pid), db: await databaseCpuMs(db) };
          figures.push({
            name: shape.name,
            latencies: load.latencies.sort((a, b) => a - b),
            reqPerSecond: load.latencies.length / load.seconds,
            perAnswer: counted.found / 200,
            mutualShare: counted.mutual / Math.max(1, counted.found),
            serviceCpu: (after.service - before.service) / load.latencies.length,
            dbCpu: databaseCpuSince(before.db, after.db) / load.latencies.length,
          });
        }
        return { label, offers: started.offers, figures };
      } finally {
        child.send('close');
        await once(child, 'exit');
      }
    };
    const checked = await run('checked');
    const before = flags.before ? await run('before', `${flags.before}/services/swaps/src/app.ts`) : null;
    // The baseline: the same airline with no trip's times known. Each row's check then finds
    // 'unknown' at once (no duty is worked out), and Mutual is what the swap rule says, as with
    // times when the check finds nothing against it.
    await timesForgotten(db);
    const baseline = await run('no-times');

    // The offer index alone, in this process: what an answer costs once the request is parsed.
    const indexCost = (page: { limit: number; after: null } | null) => {
      const indexQueries = samples.map(({ pilot, trip }) => ({ ...queryOf(pilot, trip), askerOtherTrips: otherTripsOf(trip), page }));
      for (const query of indexQueries) service.offers.find(query);
      const indexStarted = performance.now();
      let indexBytes = 0;
      for (let round = 0; round < 3; round += 1) for (const query of indexQueries) indexBytes += service.offers.find(query)!.json.length;
      return { micros: ((performance.now() - indexStarted) * 1000) / (3 * indexQueries.length), kb: indexBytes / (3 * indexQueries.length) / 1024 };
    };
    const indexWhole = indexCost(null);
    const indexPage = indexCost({ limit: PAGE, after: null });

    // Alert fan-out: who an offer goes to (the reads the alert use case makes, then the query).
    const fanOut: number[] = [];
    let recipients = 0;
    for (let i = 0; i < OFFER_SAMPLES; i += 1) {
      const offer = offers[i % offers.length]!;
      const started = performance.now();
      const trip = (await service.readModel.findTrip(offer.id))!;
      const owner = (await service.readModel.findPilot(trip.pilotId))!;
      const settingDays = await service.readModel.swapSearchDays();
      const list = await service.readModel.findRecipients({ owner, offer: { ...trip, aircraft: trip.aircraft! }, settingDays });
      fanOut.push(performance.now() - started);
      recipients += list.length;
    }
    fanOut.sort((a, b) => a - b);

    console.log('');
    console.log(`Machine load (1-minute average) at the end: ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores (the issue's target holds at load up to 3)`);
    for (const [n, shape] of shapes.entries()) {
      const [withCheck, without] = [checked.figures[n]!, baseline.figures[n]!];
      console.log(`Find swaps, ${shape.name} (HTTP, ${REQUESTS} requests from ${CLIENTS} clients at once, ${withCheck.perAnswer.toFixed(1)} offers per answer on average, ${(100 * withCheck.mutualShare).toFixed(0)}% of them Mutual)`);
      for (const [label, figures] of [['times known, check runs', withCheck], ['no times (baseline)', without]] as const) {
        const { latencies } = figures;
        console.log(
          `  ${label.padEnd(24)} swaps CPU ${ms(figures.serviceCpu)} a request  p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  p99 ${ms(percentile(latencies, 99))}  ${figures.reqPerSecond.toFixed(0)} req/s  postgres CPU ${ms(figures.dbCpu)}`,
        );
      }
      if (before) {
        const { latencies } = before.figures[n]!;
        console.log(
          `  ${'before (--before), checks'.padEnd(24)} swaps CPU ${ms(before.figures[n]!.serviceCpu)} a request  p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  p99 ${ms(percentile(latencies, 99))}  ${before.figures[n]!.reqPerSecond.toFixed(0)} req/s  postgres CPU ${ms(before.figures[n]!.dbCpu)}`,
        );
      }
      console.log(`  the check's cost: ${ms(withCheck.serviceCpu - without.serviceCpu)} a request, ${((100 * (withCheck.serviceCpu - without.serviceCpu)) / without.serviceCpu).toFixed(0)}% over the baseline (issue 55: at most 20%)${n === 0 ? '; issue 58: at most 1.0 ms a page' : ''}`);
    }
    console.log(
      `Find swaps from the offer index alone: whole list ${indexWhole.micros.toFixed(0)} µs an answer (${indexWhole.kb.toFixed(0)} KB on average), limit=${PAGE} ${indexPage.micros.toFixed(0)} µs (${indexPage.kb.toFixed(0)} KB)`,
    );
    console.log(`Alert recipients of one offer (${OFFER_SAMPLES} offers, ${(recipients / OFFER_SAMPLES).toFixed(1)} recipients on average)`);
    console.log(`  p50 ${ms(percentile(fanOut, 50))}  p95 ${ms(percentile(fanOut, 95))}  (target p95 < 200 ms)`);
  } finally {
    await service.app.close();
    await deleteStreams(service.runtime.bus);
    await service.close();
    await database.drop();
  }
}

/** Every trip's duty times taken away, in the trips and in the offers (the service reads both at start). */
async function timesForgotten(db: Db): Promise<void> {
  await db.raw('UPDATE trips SET report_at = NULL, release_at = NULL, sectors = NULL, block_minutes = NULL');
  await db.raw('UPDATE offers SET report_at = NULL, release_at = NULL, sectors = NULL, block_minutes = NULL');
}

/** Prints the plans of both queries for one sample, as they run (EXPLAIN ANALYZE). */
async function explain(db: import('@crewswap/kit').Db, pilots: Pilot[], sample: { pilot: Pilot; trip: Trip }, offer: Trip): Promise<void> {
  const { pilot, trip } = sample;
  const window = tripWindow(trip, pilot.searchDayRange, 4);
  const plans = [
    ['Find swaps', offersQuery({ ...queryOf(pilot, trip), window })],
    ['Alert recipients', recipientsQuery({ owner: pilots.find((p) => p.id === offer.pilotId)!, offer: { ...offer, aircraft: offer.aircraft! }, settingDays: 4 })],
  ] as const;
  for (const [name, { sql, bindings }] of plans) {
    const result = await db.raw<{ rows: { 'QUERY PLAN': string }[] }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings);
    console.log(`\nEXPLAIN ${name}:\n${result.rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
  }
  console.log('');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
