/**
 * A changed roster re-imported (issue 38): each pilot holds a 60-trip roster, then uploads the next
 * version, in which 10 trips differ (4 moved a day, 3 gone, 3 new). Timed end to end by upload:
 * POST /api/roster/upload over real HTTP until its answer, which comes after trips has compared,
 * deleted, updated and stored and the history is committed. One upload at a time (a pilot's own
 * import, not a load test). Real Postgres and NATS, the real trips service, its own database.
 * Run: npx tsx bench/roster-changes.bench.ts   (target: p95 under 300 ms)
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PILOT_COOKIE, deleteStreams, fixedClock, signPilotToken } from '@crewswap/kit';
import { benchBaseConfig, createTestDatabase, processCpuMs, startService, TEST_KEYS, testPilot } from '@crewswap/kit-testing';
import { addDays, SUBJECTS, type RosterUploadResult } from '@crewswap/proto';
import { createApp } from '../src/app';

const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 60);
const TRIPS = 60;
const TARGET_P95_MS = 300;
const OUTSTATIONS = ['JFK', 'LAX', 'SFO', 'BOM', 'SEA', 'MCO', 'ATL', 'IAD', 'LAS', 'BOS'];
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

interface Pairing {
  id: number;
  start: string;
  days: number;
  outstation: string;
}

const compact = (date: string) => date.replaceAll('-', '');
const dayMonth = (date: string) => `${date.slice(8, 10)}${MONTHS[Number(date.slice(5, 7)) - 1]}`;

/** A roster in the all-day pairing style (roster C): one event per pairing, legs in DESCRIPTION. */
function calendar(pairings: Pairing[]): string {
  const events = pairings.map((p) => {
    const out = 100 + 2 * p.id;
    const back = addDays(p.start, p.days - 1);
    return [
      'BEGIN:VEVENT',
      `UID:bench-p${p.id}@crewswap.test`,
      'DTSTAMP:20261028T061500Z',
      `DTSTART;VALUE=DATE:${compact(p.start)}`,
      `DTEND;VALUE=DATE:${compact(addDays(p.start, p.days))}`,
      `SUMMARY:P${p.id} LHR-${p.outstation}-LHR ${p.days}D`,
      `DESCRIPTION:Pairing P${p.id} (B789)\\n${dayMonth(p.start)} VS${out} LHR 11:15Z ${p.outstation} 19:25Z\\n${dayMonth(back)} VS${out + 1} ${p.outstation} 23:55Z LHR 07:05Z(+1)`,
      'END:VEVENT',
    ].join('\n');
  });
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//CrewSwap bench//EN', ...events, 'END:VCALENDAR', ''].join('\n');
}

// 60 three-day pairings, one every four days from 3 Nov 2026.
const first: Pairing[] = Array.from({ length: TRIPS }, (_, i) => ({ id: i, start: addDays('2026-11-03', 4 * i), days: 3, outstation: OUTSTATIONS[i % OUTSTATIONS.length]! }));
// The next version: pairings 5-8 a day later, 20-22 gone, three new ones after the last.
const second: Pairing[] = [
  ...first.filter((p) => p.id < 20 || p.id > 22).map((p) => (p.id >= 5 && p.id <= 8 ? { ...p, start: addDays(p.start, 1) } : p)),
  ...[0, 1, 2].map((n) => ({ id: TRIPS + n, start: addDays('2026-11-03', 4 * (TRIPS + n)), days: 3, outstation: 'JFK' })),
];
const before = calendar(first);
const after = calendar(second);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const database = await createTestDatabase();
const base = { ...benchBaseConfig(database.url), LOG_LEVEL: 'warn' as const };
const clock = fixedClock('2026-11-01T12:00:00Z');
const settings = { get: async (key: string) => (key === 'upload_email' ? 'roster-upload@example-airline.test' : '4') };
const trips = await startService('trips', base, { env: { PROFILE_WAIT_MS: '0' }, options: { clock, settings, keys: TEST_KEYS } });
const roster = await createApp(
  {
    ...base,
    PORT: 0,
    PRODUCT_NAME: 'CrewSwap',
    SMTP_INGEST_PORT: 0,
    SMTP_INGEST_HOST: '127.0.0.1',
    SMTP_INGEST_ENABLED: false,
    MAIL_WORKER_ENABLED: false,
    MAIL_ACK_WAIT_MS: 60_000,
    MAIL_WORKER_CONCURRENCY: 4,
    ROSTER_UPLOAD_EMAIL: 'roster-upload@example-airline.test',
    SMTP_MAX_MESSAGE_BYTES: 15 * 1024 * 1024,
    ROSTER_FETCH_INTERVAL_MINUTES: 60,
    ROSTER_FETCH_ALLOWED_PRIVATE_HOSTS: [],
    ROSTER_FETCH_TIMEOUT_MS: 10_000,
    ROSTER_FETCH_TICK_MS: 30_000,
    ROSTER_FETCH_ENABLED: false,
    SMTP_REQUIRE_TLS: false,
    SMTP_STARTTLS: true,
    SMTP_MAX_CLIENTS: 50,
    SMTP_BUFFER_BYTES: 16 * 1024 * 1024,
    PARSE_WORKERS: 2,
    PARSE_TIMEOUT_MS: 20_000,
  },
  { clock, settings, keys: TEST_KEYS },
);

try {
  const pilots = Array.from({ length: IMPORTS }, () => testPilot({ base: 'LHR', fleet: 'B787', rank: 'FO' }));
  await trips.runtime.db.transaction(async (trx) => {
    for (const pilot of pilots) await trips.runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot });
  });
  const count = async (db: typeof roster.runtime.db) => Number((await db('pilots').count('* as count'))[0]!.count);
  while ((await count(roster.runtime.db)) < pilots.length || (await count(trips.runtime.db)) < pilots.length) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  await roster.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(roster.app.server.address() as AddressInfo).port}/api/roster/upload`;
  const upload = async (pilotId: string, text: string): Promise<RosterUploadResult> => {
    const form = new FormData();
    form.append('roster', new Blob([text], { type: 'text/calendar' }), 'roster.ics');
    const token = signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId });
    const response = await fetch(url, { method: 'POST', body: form, headers: { cookie: `${PILOT_COOKIE}=${token}` } });
    const body = (await response.json()) as RosterUploadResult;
    if (response.status !== 200) throw new Error(`upload answered ${response.status} ${JSON.stringify(body)}`);
    return body;
  };

  // Statements sent to Postgres by both services (each a round trip, BEGIN and COMMIT included),
  // and this process's CPU (both services, the parse workers and the client): on a busy machine
  // these say more than the wall times, which wait for a core.
  let statements = 0;
  for (const db of [roster.runtime.db, trips.runtime.db]) db.on('query', () => (statements += 1));
  const cost = { first: { statements: 0, cpu: 0 }, changed: { statements: 0, cpu: 0 } };
  const timed = async (kind: 'first' | 'changed', run: () => Promise<RosterUploadResult>) => {
    const [statementsBefore, cpuBefore, started] = [statements, processCpuMs(), performance.now()];
    const result = await run();
    const ms = performance.now() - started;
    cost[kind].statements += statements - statementsBefore;
    cost[kind].cpu += processCpuMs() - cpuBefore;
    return { result, ms };
  };

  const times: number[] = [];
  const firstTimes: number[] = [];
  for (const pilot of pilots) {
    const { result: held, ms: firstMs } = await timed('first', () => upload(pilot.id, before));
    firstTimes.push(firstMs);
    if (held.processedCount !== TRIPS) throw new Error(`the first roster stored ${held.processedCount} trips, not ${TRIPS}: ${held.message}`);
    const { result, ms } = await timed('changed', () => upload(pilot.id, after));
    times.push(ms);
    if (result.addedCount !== 3 || result.changedCount !== 4 || result.removedCount !== 3) throw new Error(`the changed roster gave ${result.message}, not 3 added, 4 changed, 3 removed`);
  }

  const sorted = [...times].sort((a, b) => a - b);
  const p95 = percentile(sorted, 95);
  const firstSorted = [...firstTimes].sort((a, b) => a - b);
  console.log(`\nroster-ingest: a 60-trip roster re-imported with 10 trips changed (3 added, 4 changed, 3 removed), by upload, ${IMPORTS} pilots one at a time\n`);
  const row = (name: string, kind: 'first' | 'changed', samples: number[], target: string) =>
    console.log(
      `| ${name.padEnd(21)} | ${String(samples.length).padStart(7)} | ${percentile(samples, 50).toFixed(0).padStart(6)} | ${percentile(samples, 95).toFixed(0).padStart(6)} | ${percentile(samples, 99).toFixed(0).padStart(6)} | ${samples.at(-1)!.toFixed(0).padStart(6)} | ${(cost[kind].statements / samples.length).toFixed(1).padStart(10)} | ${(cost[kind].cpu / samples.length).toFixed(1).padStart(10)} | ${target.padEnd(16)} |`,
    );
  console.log('| import                | imports | p50 ms | p95 ms | p99 ms | max ms | statements | CPU ms     | target           |');
  console.log('|-----------------------|---------|--------|--------|--------|--------|------------|------------|------------------|');
  // For comparison: the same roster's first import (60 added, nothing to compare with).
  row('first (60 added)', 'first', firstSorted, '');
  row('changed (10 differ)', 'changed', sorted, `p95 < ${TARGET_P95_MS} ms ${p95 < TARGET_P95_MS ? 'yes' : 'NO'}`);
} finally {
  await roster.runtime.relay.stop();
  await trips.runtime.relay.stop();
  await deleteStreams(roster.runtime.bus);
  await roster.close();
  await trips.close();
  await database.drop();
}
