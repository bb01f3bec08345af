/**
 * Quiet-hour releases: `npx tsx services/push-sender/bench/release.bench.ts [--pilots 10000] [--held 5]`
 * (part of `npm run bench -w @crewswap/push-sender`). Every pilot has quiet hours ending at the
 * same minute and `held` pushes waiting; one release run folds each pilot's into one push and
 * queues it through the outbox. Target: 10,000 pilots within 30 s. It prints figures; it asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { deleteStreams, fixedClock, generateVapidKeys } from '@crewswap/kit';
import { benchBaseConfig, createTestDatabase, startService } from '@crewswap/kit-testing';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';

const { values: flags } = parseArgs({ options: { pilots: { type: 'string', default: '10000' }, held: { type: 'string', default: '5' } } });
const PILOTS = Number(flags.pilots);
const HELD = Number(flags.held);

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const vapid = generateVapidKeys();
  const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey };
  // Before the held pushes' quiet hours end (22:00-07:00 London) until the clock moves.
  const clock = fixedClock('2026-11-20T23:00:00Z');
  const config = { ...configSchema.parse(env), ...benchBaseConfig(database.url), PORT: 0 };
  // notifications migrates the schema push-sender works in.
  const notifications = await startService('notifications', config, { options: { clock } });
  const sender = await createApp(config, { clock });
  const { db } = sender.runtime;
  try {
    const quiet = JSON.stringify({ start: '22:00', end: '07:00', timeZone: 'Europe/London' });
    const at = clock.now();
    for (let first = 0; first < PILOTS; first += 500) {
      const pilots = Array.from({ length: Math.min(500, PILOTS - first) }, () => randomUUID());
      await db('notification_preferences').insert(
        pilots.map((pilotId) => ({ pilot_id: pilotId, enabled: true, swap_notifications: true, whatsapp_group_alerts: true, urgent: true, quiet_hours: quiet, version: 1, updated_at: at })),
      );
      const rows = pilots.flatMap((pilotId) =>
        Array.from({ length: HELD }, (_, n) => ({
          id: randomUUID(),
          command_id: randomUUID(),
          pilot_id: pilotId,
          kind: 'swap_offer',
          dedupe_key: `bench:${pilotId}:${n}`,
          title: 'New swap offer',
          body: 'VS001/VS002 JFK (A350), 2026-12-01 to 2026-12-04',
          url: '/',
          reason: 'offer',
          status: 'held',
          created_at: at,
          updated_at: at,
        })),
      );
      await db('notification_log').insert(rows);
      await db('held_pushes').insert(rows.map((row) => ({ log_id: row.id, pilot_id: row.pilot_id, held_at: at })));
    }
    await db.raw('VACUUM ANALYZE held_pushes');
    await db.raw('VACUUM ANALYZE notification_log');
    clock.set('2026-11-21T07:00:00Z');
    const started = performance.now();
    const result = await sender.releaseHeld.execute();
    const seconds = (performance.now() - started) / 1000;
    const queued = await db('outbox').where({ subject: 'notifications.cmd.push' }).count({ n: '*' }).first();
    console.log(
      `Quiet-hour release: ${result.pilots} pilots, ${result.pushes} held pushes folded into ${Number(queued?.n ?? 0)} queued in ${seconds.toFixed(1)} s (target < 30 s for 10,000 pilots)`,
    );
  } finally {
    await deleteStreams(sender.runtime.bus);
    await sender.close();
    await notifications.close();
    await database.drop();
  }
}

await main();
