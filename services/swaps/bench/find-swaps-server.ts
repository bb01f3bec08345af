/**
 * The swaps service alone, for the Find swaps bench (matches.bench.ts): started in a process of
 * its own so that its CPU time (/proc/<pid>/stat) is the service's and nothing else's. The config
 * comes as JSON in BENCH_CONFIG, the service's clock as BENCH_NOW. Over IPC it is sent the pilots
 * to sign session tokens for (signed here, so that this process knows them as its own, with no
 * auth to ask), answers the address it listens on and the cookies, and closes when told to.
 * BENCH_APP, when set, is another build's src/app.ts to serve instead (the bench's --before).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fixedClock, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';

const config = JSON.parse(process.env.BENCH_CONFIG!);
const { createApp } = (await import(process.env.BENCH_APP ?? '../src/app')) as typeof import('../src/app');
const service = await createApp(config, { clock: fixedClock(process.env.BENCH_NOW!) });
// The offer index answers once it has read the table: the bench measures answers from memory, as in production.
while (!service.offers.status().ready) await new Promise((resolve) => setTimeout(resolve, 50));
const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
const [pilotIds] = (await once(process, 'message')) as [string[]];
const cookies = pilotIds.map((pilotId) => `${PILOT_COOKIE}=${signPilotToken(config.JWT_PRIVATE_KEY, { sessionId: randomUUID(), pilotId })}`);
process.send!({ address, offers: service.offers.status().offers, cookies });
process.once('message', async () => {
  await service.app.close();
  await service.close();
  // Exits with the CPU profile written (--cpu-prof), and without waiting for idle timers.
  process.exit(0);
});
