/**
 * Latency of a pilot's calendar feed (GET /api/calendar/{token}.ics) for pilots with 60 upcoming
 * trips each, over real HTTP on loopback: the full answer, and the 304 a calendar app polling with
 * the ETag it holds gets, and the full answer right after one of the pilot's trips changed (the
 * text cannot be one kept from before). Its own temporary database (dropped at the end) and NATS prefix.
 * Run: npx tsx bench/feed.bench.ts   (target: p95 under 10 ms)
 */
import { deleteStreams } from '@crewswap/kit';
import { processCpuMs } from '@crewswap/kit-testing';
import { startBenchService } from './seed';

const PILOTS = Number(process.env.BENCH_FEED_PILOTS ?? 2000);
const TRIPS_PER_PILOT = 60;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
/** The pilots whose feeds are read (each turned on through the use case, as the app does). */
const FEEDS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const { database, service, db, today } = await startBenchService();

try {
  await db.raw(
    `INSERT INTO pilots (id, employee_id, first_name, last_name, rank, fleet, base, apic, ltc, usual_req, test_data, search_day_range, profile, occurred_at)
     SELECT gen_random_uuid(), lpad(g::text, 6, '0'), 'Bench', 'Pilot' || g, 'FO', 'A350', 'LHR', true, false, true, true, NULL, '{}'::jsonb, now()
     FROM generate_series(1, ?) AS g`,
    [PILOTS],
  );
  // 60 trips each, every 3 days from tomorrow, 2 days long: some offered, some kept, each with
  // roster duty text long enough to be folded.
  await db.raw(
    `INSERT INTO trips (pilot_id, flight_no_start, flight_no_end, aircraft, route, start_date, end_date, is_swappable, requested, swap_description, ics_description, source)
     SELECT p.id, 'VS025', 'VS026', 'A350', 'JFK-BOS', ?::date + 1 + g * 3, ?::date + 2 + g * 3, g % 5 = 0, g % 7 = 0 AND g % 5 <> 0,
            CASE WHEN g % 5 = 0 THEN 'Any east coast trip, same dates' END,
            'VS25 LHR 1100 JFK 1400 351 [FO]; Report 0945, hotel Marriott Downtown, pickup 1600, VS26 JFK 1830 LHR 0630 351 [FO]', 'roster'
     FROM pilots p CROSS JOIN generate_series(0, ?) AS g`,
    [today, today, TRIPS_PER_PILOT - 1],
  );
  await db.raw('ANALYZE trips');
  await db.raw('ANALYZE pilots');

  const ids: string[] = (await db('pilots').select('id').limit(FEEDS)).map((row: { id: string }) => row.id);
  const paths: string[] = [];
  for (const pilotId of ids) paths.push(new URL((await service.useCases.feed.rotate(pilotId)).url.replace(/^webcal:/, 'http:')).pathname);

  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const etags = new Map<string, string>();
  let bytes = 0;
  // Each feed's pilot, and one trip of theirs, to change before a read that must see the change.
  const pilotOf = new Map(paths.map((path, i) => [path, ids[i]!]));
  async function measure(count: number, conditional: boolean, changed = false): Promise<number[]> {
    const samples: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const path = paths[(i * 7919) % paths.length]!;
      const headers: Record<string, string> = conditional ? { 'if-none-match': etags.get(path)! } : {};
      // Outside the timing: one of the pilot's trips changes (its version moves on), so the feed
      // is read and written afresh, as the first read after a change is.
      if (changed) {
        await db.raw(`UPDATE trips SET version = version + 1, updated_at = now() WHERE id = (SELECT id FROM trips WHERE pilot_id = ? AND end_date >= ? ORDER BY start_date LIMIT 1)`, [pilotOf.get(path)!, today]);
      }
      const started = performance.now();
      const response = await fetch(`${base}${path}`, { headers });
      const body = await response.arrayBuffer();
      samples.push(performance.now() - started);
      const expected = conditional ? 304 : 200;
      if (response.status !== expected) throw new Error(`unexpected ${response.status} at request ${i}`);
      if (!conditional) {
        etags.set(path, response.headers.get('etag')!);
        bytes = body.byteLength;
      }
    }
    return samples.sort((a, b) => a - b);
  }

  // Warm up connections and the JIT (and learn each feed's ETag) before measuring.
  await measure(300, false);
  const results: Record<string, { samples: number[]; cpu: number }> = {};
  for (const [name, conditional, changed, count] of [
    ['GET feed (200)', false, false, REQUESTS],
    ['GET feed (304, If-None-Match)', true, false, REQUESTS],
    ['GET feed (200, a trip changed)', false, true, Math.ceil(REQUESTS / 4)],
  ] as const) {
    const cpuBefore = processCpuMs();
    const samples = await measure(count, conditional, changed);
    results[name] = { samples, cpu: (processCpuMs() - cpuBefore) / samples.length };
  }

  console.log(`\nCalendar feed: ${PILOTS} pilots x ${TRIPS_PER_PILOT} upcoming trips (${FEEDS} feeds read, ${(bytes / 1024).toFixed(1)} KB each), sequential requests over loopback HTTP\n`);
  console.log('| request                        | requests | p50 ms | p95 ms | p99 ms | max ms | p95 < 10 ms | CPU ms node (app + client) |');
  console.log('|--------------------------------|----------|--------|--------|--------|--------|-------------|----------------------------|');
  for (const [name, { samples, cpu }] of Object.entries(results)) {
    const p95 = percentile(samples, 95);
    console.log(
      `| ${name.padEnd(30)} | ${String(samples.length).padStart(8)} | ${percentile(samples, 50).toFixed(2).padStart(6)} | ${p95.toFixed(2).padStart(6)} | ${percentile(samples, 99).toFixed(2).padStart(6)} | ${samples.at(-1)!.toFixed(2).padStart(6)} | ${(p95 < 10 ? 'yes' : 'NO').padEnd(11)} | ${cpu.toFixed(2).padStart(26)} |`,
    );
  }
} finally {
  await deleteStreams(service.runtime.bus);
  await service.close();
  await database.drop();
}
