/**
 * push-sender throughput: `npm run bench -w @crewswap/push-sender [-- --pilots 1000] [--pushes 5000]`.
 * A temporary database (migrated by notifications, which owns it) with one push subscription per pilot, a local push service on loopback
 * (answers 201 at once) and `pushes` commands waiting on the work queue; then push-sender starts
 * and the clock runs until every command is logged as sent. Each push is encrypted (RFC 8291)
 * and VAPID-signed (RFC 8292) as for a real push service. Target: over 500 notifications/s.
 * It prints figures; it asserts nothing.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { connectBus, createLogger, deleteStreams, generateVapidKeys, systemClock } from '@crewswap/kit';
import { benchBaseConfig, createTestDatabase, startService, uniqueName } from '@crewswap/kit-testing';
import { SUBJECTS } from '@crewswap/proto';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';

const { values: flags } = parseArgs({
  options: {
    pilots: { type: 'string', default: '1000' },
    pushes: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '64' },
  },
});
const PILOTS = Number(flags.pilots);
const PUSHES = Number(flags.pushes);

/** A push service that accepts every push at once (201) and counts them; it tells its port, then its count when asked. */
const STAND_IN = `
let received = 0;
const server = require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => { received += 1; response.writeHead(201).end(); });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', () => process.send({ received }));
`;

async function main(): Promise<void> {
  // The stand-in push service runs in a process of its own, so this process's CPU is push-sender's.
  const endpoint = spawn(process.execPath, ['-e', STAND_IN], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    endpoint.once('message', (message) => resolve((message as { port: number }).port));
    endpoint.once('exit', (code) => reject(new Error(`the stand-in push service exited with ${code}`)));
  });
  const origin = `http://127.0.0.1:${port}`;

  const database = await createTestDatabase();
  const vapid = generateVapidKeys();
  const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, PUSH_CONCURRENCY: flags.concurrency };
  const config = { ...configSchema.parse(env), ...benchBaseConfig(database.url, uniqueName('bench')), PORT: 0 };

  // notifications migrates its schema; the subscriptions are seeded straight into it.
  const notifications = await startService('notifications', config);
  const { db } = notifications.runtime;
  const pilots = Array.from({ length: PILOTS }, () => randomUUID());
  const key = createECDH('prime256v1');
  key.generateKeys();
  for (let i = 0; i < pilots.length; i += 500) {
    await db('push_subscriptions').insert(
      pilots.slice(i, i + 500).map((pilotId) => ({ id: randomUUID(), pilot_id: pilotId, endpoint: `${origin}/push/${pilotId}`, p256dh: key.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') })),
    );
  }

  const publisher = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name: 'push-bench', log: createLogger('bench', config) });
  const publishes: Promise<unknown>[] = [];
  for (let i = 0; i < PUSHES; i += 1) {
    const id = randomUUID();
    const data = { pilotId: pilots[i % pilots.length]!, kind: 'swap_offer', title: 'New swap offer', body: `Bench offer ${i}`, url: '/', dedupeKey: `bench:${i}` };
    publishes.push(publisher.js.publish(publisher.subject(SUBJECTS.sendPush), JSON.stringify({ id, type: SUBJECTS.sendPush, occurredAt: new Date().toISOString(), version: 1, data }), { msgID: id }));
  }
  await Promise.all(publishes);

  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const sender = await createApp(config, { clock: systemClock });
  let sent = 0;
  while (sent < PUSHES) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    sent = Number((await sender.runtime.db('notification_log').where({ status: 'sent' }).count({ n: '*' }).first())?.n ?? 0);
    if (performance.now() - started > 300_000) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const span = await sender.runtime.db('notification_log').select(sender.runtime.db.raw('extract(epoch from max(updated_at) - min(created_at)) AS seconds')).first();
  const steady = Number(span?.seconds ?? NaN);
  const received = await new Promise<number>((resolve) => {
    endpoint.once('message', (message) => resolve((message as { received: number }).received));
    endpoint.send('count');
  });
  console.log(`push-sender (concurrency ${config.PUSH_CONCURRENCY}) -> local push service: ${sent} notifications sent (endpoint received ${received})`);
  console.log(`  ${Math.round(sent / steady)}/s from the first command taken to the last sent (${steady.toFixed(1)} s); ${Math.round(sent / seconds)}/s including start-up (${seconds.toFixed(1)} s)`);
  console.log(`  ${((cpu.user + cpu.system) / 1000 / sent).toFixed(2)} ms of CPU per notification in push-sender (the stand-in push service and Postgres apart)`);

  await sender.close();
  await notifications.close();
  await deleteStreams(publisher);
  await publisher.close();
  endpoint.kill();
  await database.drop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
