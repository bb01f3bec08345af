/**
 * Hostile imports (issue 51): one pilot sends eight slow-to-read calendars at once, by upload and
 * by mail, and again once its uploads are answered (at most every 2 s), while other pilots import
 * roster A (34 events, 9 records) one upload at a time and by mail. Prints the other pilots' p50
 * and p95, from request to answer (upload) and from receipt to trips stored (mail), for each mix
 * of hostile files and with none, and how much later the p95 is than with none. Real Postgres and
 * NATS, the real trips service, roster-ingest with its default configuration (2 parse workers).
 * Run: npx tsx bench/hostile-import.bench.ts   (target: other pilots' p95 under 300 ms by upload,
 * and no more than 300 ms later than with no hostile pilot either way; a mail takes longer than
 * that even alone, from the SMTP receiver through the stream to the worker)
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PILOT_COOKIE, deleteStreams, fixedClock, signPilotToken } from '@crewswap/kit';
import { benchBaseConfig, createTestDatabase, startService, TEST_KEYS, testPilot } from '@crewswap/kit-testing';
import { SUBJECTS, type Pilot } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';
import { hostileCalendar, manyExceptionsCalendar, repeatingCalendar } from '../test/hostile';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const TARGET_MS = 300;
const BURST_EVERY_MS = 2000;
const UPLOAD_EMAIL = 'roster-upload@example-airline.test';
const FIXTURES = join(import.meta.dirname, '../test/fixtures/rosters');
const ics = readFileSync(join(FIXTURES, 'roster-a-lhr-a350-cp.ics'));
const eml = readFileSync(join(FIXTURES, 'roster-a.eml'), 'utf8');

interface Mix {
  name: string;
  /** The eight files the hostile pilot sends at once, over and over. */
  files: string[];
  /** Sent by mail as well as uploaded (a 10 MB file is uploaded only). */
  mail: boolean;
}
const eight = (text: string) => Array.from({ length: 8 }, () => text);
const zoned = repeatingCalendar({ events: 1990, zoned: true });
const MIXES: Mix[] = [
  { name: 'none (baseline)', files: [], mail: true },
  { name: '1,990 repeating events (RRULE), 340 KB', files: eight(repeatingCalendar({ events: 1990 })), mail: true },
  { name: 'one event with 25,000 EXDATEs, 430 KB', files: eight(manyExceptionsCalendar(25_000)), mail: true },
  { name: '1,990 repeating events in named zones, 500 KB', files: eight(zoned), mail: true },
  { name: '4 x 10 MB of 1,990 events + 4 named zones', files: [...eight(hostileCalendar({ bytes: 10 * 1024 * 1024 - 4096, events: 1990, padding: 5000 })).slice(4), ...eight(zoned).slice(4)], mail: false },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const database = await createTestDatabase();
const base = { ...benchBaseConfig(database.url), LOG_LEVEL: 'fatal' as const };
const clock = fixedClock('2026-11-01T12:00:00Z');
const settings = { get: async (key: string) => (key === 'upload_email' ? UPLOAD_EMAIL : '4') };
const trips = await startService('trips', base, { env: { PROFILE_WAIT_MS: '0' }, options: { clock, settings, keys: TEST_KEYS } });
// The service's own defaults (parse workers, time limit, mail worker concurrency) unless the environment sets them.
const defaults = configSchema.parse({ ...process.env, SMTP_INGEST_PORT: '0', SMTP_INGEST_HOST: '127.0.0.1', ROSTER_UPLOAD_EMAIL: UPLOAD_EMAIL });
const roster = await createApp(
  { ...defaults, ...base, PORT: 0 },
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
  // A fresh pilot for every measured import, so each imports the same 9 new trips.
  const hostile = testPilot({ email: `hostile.${randomUUID().slice(0, 6)}@example-airline.test`, base: 'LHR', fleet: 'A350' });
  const others = Array.from({ length: MIXES.length * SAMPLES * 2 }, (_, i) => testPilot({ email: `other.${i}.${randomUUID().slice(0, 6)}@example-airline.test`, base: 'LHR', fleet: 'A350' }));
  await trips.runtime.db.transaction(async (trx) => {
    for (const pilot of [hostile, ...others]) await trips.runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot });
  });
  const count = async (sql: string, bindings: unknown[] = []) => Number((await roster.runtime.db.raw(sql, bindings as never)).rows[0].count);
  while ((await count('SELECT count(*) FROM pilots')) < others.length + 1 || Number((await trips.runtime.db('pilots').count('* as count'))[0]!.count) < others.length + 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  await roster.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(roster.app.server.address() as AddressInfo).port}/api/roster/upload`;
  const upload = async (pilot: Pilot, content: Buffer | string) => {
    const form = new FormData();
    form.append('roster', new Blob([content], { type: 'text/calendar' }), 'roster.ics');
    const token = signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: pilot.id });
    const response = await fetch(url, { method: 'POST', body: form, headers: { cookie: `${PILOT_COOKIE}=${token}` } });
    return { status: response.status, body: (await response.json()) as { processedCount?: number } };
  };
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: roster.smtpPort!, secure: false, ignoreTLS: true, pool: true, maxConnections: 8 });

  console.log(`\nroster-ingest under hostile imports: one pilot sends 8 files at once, again and again; ${SAMPLES} other pilots import roster A each way`);
  console.log(`(${defaults.PARSE_WORKERS} parse workers, ${defaults.PARSE_TIMEOUT_MS} ms per file, mail worker concurrency ${defaults.MAIL_WORKER_CONCURRENCY})\n`);
  console.log('| hostile pilot sends 8 of                         | its uploads answered | upload p50 | upload p95 | (later) | mail p50 | mail p95 | (later) | target met |');
  console.log('|--------------------------------------------------|----------------------|------------|------------|---------|----------|----------|---------|------------|');
  let next = 0;
  let baseline: { upload: number; mail: number } | undefined;
  for (const mix of MIXES) {
    const uploaders = others.slice(next, next + SAMPLES);
    const mailers = others.slice(next + SAMPLES, next + SAMPLES * 2);
    next += SAMPLES * 2;

    let measuring = true;
    const answers = new Map<number, number>();
    const attack = (async () => {
      while (measuring && mix.files.length > 0) {
        const mails = mix.mail
          ? mix.files.map((text) =>
              transport.sendMail({ envelope: { from: hostile.email, to: [UPLOAD_EMAIL] }, from: hostile.email, to: UPLOAD_EMAIL, subject: 'roster', text: 'roster', attachments: [{ filename: 'roster.ics', content: text, contentType: 'text/calendar' }] }),
            )
          : [];
        const uploads = mix.files.map(async (text) => {
          const { status } = await upload(hostile, text);
          answers.set(status, (answers.get(status) ?? 0) + 1);
        });
        await Promise.all([...mails, ...uploads, new Promise((resolve) => setTimeout(resolve, BURST_EVERY_MS))]);
      }
    })();
    // The hostile files are on their way before the first measured import.
    await new Promise((resolve) => setTimeout(resolve, mix.files.length > 0 ? 500 : 0));

    const mailsSent = Promise.all(
      mailers.map(async (pilot, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 100));
        await transport.sendMail({ envelope: { from: pilot.email, to: [UPLOAD_EMAIL] }, raw: eml.replaceAll('imogen.thistlewood@example-airline.test', pilot.email) });
      }),
    );
    const uploadTimes: number[] = [];
    for (const pilot of uploaders) {
      const started = performance.now();
      const { status, body } = await upload(pilot, ics);
      if (status !== 200 || body.processedCount !== 9) throw new Error(`an upload answered ${status} ${JSON.stringify(body)}`);
      uploadTimes.push(performance.now() - started);
    }
    await mailsSent;
    const mailerIds = mailers.map((pilot) => pilot.id);
    while ((await count('SELECT count(*) FROM roster_history WHERE pilot_id = ANY(?)', [mailerIds])) < mailers.length) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    measuring = false;
    await attack;

    const rows = (
      await roster.runtime.db.raw(
        `SELECT extract(epoch FROM m.received_at) * 1000 AS received, extract(epoch FROM h.processing_end_time) * 1000 AS stored, h.trips_added
         FROM roster_history h JOIN inbound_mail m ON m.id = h.mail_id WHERE h.pilot_id = ANY(?)`,
        [mailerIds],
      )
    ).rows as { received: string; stored: string; trips_added: number }[];
    if (rows.some((row) => row.trips_added !== 9)) throw new Error('an emailed roster did not import its 9 trips');
    const uploads = [...uploadTimes].sort((a, b) => a - b);
    const mails = rows.map((row) => Number(row.stored) - Number(row.received)).sort((a, b) => a - b);
    const p95 = { upload: percentile(uploads, 95), mail: percentile(mails, 95) };
    baseline ??= p95;
    const later = { upload: p95.upload - baseline.upload, mail: p95.mail - baseline.mail };
    const ok = p95.upload < TARGET_MS && later.upload < TARGET_MS && later.mail < TARGET_MS;
    const hostileAnswers = [...answers].map(([status, n]) => `${n} x ${status}`).join(', ') || '-';
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    console.log(
      `| ${mix.name.padEnd(48)} | ${hostileAnswers.padEnd(20)} | ${ms(percentile(uploads, 50)).padStart(10)} | ${ms(p95.upload).padStart(10)} | ${ms(later.upload).padStart(7)} | ${ms(percentile(mails, 50)).padStart(8)} | ${ms(p95.mail).padStart(8)} | ${ms(later.mail).padStart(7)} | ${(ok ? 'yes' : 'NO').padEnd(10)} |`,
    );
  }
  transport.close();
} finally {
  // Relays stopped first: with the streams gone they would only log failed publishes.
  await roster.runtime.relay.stop();
  await trips.runtime.relay.stop();
  await deleteStreams(roster.runtime.bus);
  await roster.close();
  await trips.close();
  await database.drop();
}
