/**
 * Roster imports per second and p95 from receipt to trips stored, by upload (POST /api/roster/upload
 * over real HTTP) and by SMTP (nodemailer to the receiver; receipt = the mail's stored time, stored =
 * the history record's end, which commits with the trips' import). Roster A (34 events, 9 records)
 * for a fresh pilot each time. Real Postgres and NATS, the real trips service, its own database.
 * Run: npx tsx bench/roster.bench.ts   (targets: 50 rosters/s by upload, 20 by SMTP)
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PILOT_COOKIE, deleteStreams, fixedClock, signPilotToken } from '@crewswap/kit';
import { benchBaseConfig, createTestDatabase, startService, TEST_KEYS, testPilot } from '@crewswap/kit-testing';
import { SUBJECTS } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import { createApp } from '../src/app';

const ROSTERS = Number(process.env.BENCH_ROSTERS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const UPLOAD_EMAIL = 'roster-upload@example-airline.test';
const FIXTURES = join(import.meta.dirname, '../test/fixtures/rosters');
const ics = readFileSync(join(FIXTURES, 'roster-a-lhr-a350-cp.ics'));
const eml = readFileSync(join(FIXTURES, 'roster-a.eml'), 'utf8');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

const database = await createTestDatabase();
const base = { ...benchBaseConfig(database.url), LOG_LEVEL: 'warn' as const };
const clock = fixedClock('2026-11-01T12:00:00Z');
const settings = { get: async (key: string) => (key === 'upload_email' ? UPLOAD_EMAIL : '4') };
const trips = await startService('trips', base, { env: { PROFILE_WAIT_MS: '0' }, options: { clock, settings, keys: TEST_KEYS } });
const roster = await createApp(
  {
    ...base,
    PORT: 0,
    PRODUCT_NAME: 'CrewSwap',
    SMTP_INGEST_PORT: 0,
    SMTP_INGEST_HOST: '127.0.0.1',
    SMTP_INGEST_ENABLED: true,
    MAIL_WORKER_ENABLED: true,
    MAIL_ACK_WAIT_MS: 60_000,
    MAIL_WORKER_CONCURRENCY: Number(process.env.MAIL_WORKER_CONCURRENCY ?? 4),
    ROSTER_UPLOAD_EMAIL: UPLOAD_EMAIL,
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
  {
    clock,
    settings,
    keys: TEST_KEYS,
    // The bench's mail comes from 127.0.0.1, which the airline's SPF (answered here, not by real DNS) allows.
    dnsResolver: async (name, type) => {
      if (type === 'TXT' && name === 'example-airline.test') return [['v=spf1 ip4:127.0.0.1 -all']];
      throw Object.assign(new Error(`query${type} ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    },
  },
);

try {
  const pilots = Array.from({ length: ROSTERS * 2 }, (_, i) => testPilot({ email: `bench.${i}.${randomUUID().slice(0, 6)}@example-airline.test`, base: 'LHR', fleet: 'A350' }));
  await trips.runtime.db.transaction(async (trx) => {
    for (const pilot of pilots) await trips.runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot });
  });
  const count = async (sql: string) => Number((await roster.runtime.db.raw(sql)).rows[0].count);
  while ((await count('SELECT count(*) FROM pilots')) < pilots.length || Number((await trips.runtime.db('pilots').count('* as count'))[0]!.count) < pilots.length) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // Upload over real HTTP.
  await roster.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(roster.app.server.address() as AddressInfo).port}/api/roster/upload`;
  const uploaders = pilots.slice(0, ROSTERS);
  const uploadTimes: number[] = [];
  const uploadStart = performance.now();
  await inParallel(uploaders, CONCURRENCY, async (pilot) => {
    const form = new FormData();
    form.append('roster', new Blob([ics], { type: 'text/calendar' }), 'roster.ics');
    const token = signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: pilot.id });
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', body: form, headers: { cookie: `${PILOT_COOKIE}=${token}` } });
    const body = (await response.json()) as { processedCount?: number };
    if (response.status !== 200 || body.processedCount !== 9) throw new Error(`upload answered ${response.status} ${JSON.stringify(body)}`);
    uploadTimes.push(performance.now() - started);
  });
  const uploadSeconds = (performance.now() - uploadStart) / 1000;

  // SMTP: each mail from its own registered pilot.
  const senders = pilots.slice(ROSTERS);
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: roster.smtpPort!, secure: false, ignoreTLS: true, pool: true, maxConnections: CONCURRENCY });
  await inParallel(senders, CONCURRENCY, async (pilot) => {
    await transport.sendMail({ envelope: { from: pilot.email, to: [UPLOAD_EMAIL] }, raw: eml.replaceAll('imogen.thistlewood@example-airline.test', pilot.email) });
  });
  transport.close();
  while ((await count("SELECT count(*) FROM roster_history WHERE source_type = 'email'")) < senders.length) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const rows = (
    await roster.runtime.db.raw(
      `SELECT extract(epoch FROM m.received_at) * 1000 AS received, extract(epoch FROM h.processing_end_time) * 1000 AS stored, h.trips_added
       FROM roster_history h JOIN inbound_mail m ON m.id = h.mail_id`,
    )
  ).rows as { received: string; stored: string; trips_added: number }[];
  if (rows.some((row) => row.trips_added !== 9)) throw new Error('an emailed roster did not import its 9 trips');
  const smtpTimes = rows.map((row) => Number(row.stored) - Number(row.received));
  const smtpSeconds = (Math.max(...rows.map((row) => Number(row.stored))) - Math.min(...rows.map((row) => Number(row.received)))) / 1000;

  console.log(`\nroster-ingest: ${ROSTERS} rosters each way (roster A, 9 trips), ${CONCURRENCY} at a time\n`);
  console.log('| path   | rosters | rosters/s | p50 ms | p95 ms | max ms | target     |');
  console.log('|--------|---------|-----------|--------|--------|--------|------------|');
  for (const [name, times, seconds, target] of [
    ['upload', uploadTimes, uploadSeconds, 50],
    ['smtp', smtpTimes, smtpSeconds, 20],
  ] as const) {
    const sorted = [...times].sort((a, b) => a - b);
    const rate = sorted.length / seconds;
    console.log(
      `| ${name.padEnd(6)} | ${String(sorted.length).padStart(7)} | ${rate.toFixed(1).padStart(9)} | ${percentile(sorted, 50).toFixed(0).padStart(6)} | ${percentile(sorted, 95).toFixed(0).padStart(6)} | ${sorted.at(-1)!.toFixed(0).padStart(6)} | ${`>= ${target}/s ${rate >= target ? 'yes' : 'NO'}`.padEnd(10)} |`,
    );
  }
} finally {
  // Relays stopped first: with the streams gone they would only log failed publishes.
  await roster.runtime.relay.stop();
  await trips.runtime.relay.stop();
  await deleteStreams(roster.runtime.bus);
  await roster.close();
  await trips.close();
  await database.drop();
}
