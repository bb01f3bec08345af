/**
 * `npm run reset-directory -w @crewswap/trips` (in the image: `node services/trips/dist/reset-directory.mjs`):
 * forgets the pilot directory and its consumer, so trips rebuilds it from the whole AUTH stream.
 * Restart trips afterwards (`kubectl rollout restart deployment/...-trips`): the replicas that
 * start recreate the consumer and replay every pilot event; trips themselves are left alone.
 */
import { connectBus, createDb, createLogger, loadConfigOrExit, natsCredentials } from '@crewswap/kit';
import { configSchema, type Config } from './config';
import { createPilotRepository } from './data/pilots';
import { resetPilotDirectory } from './events/pilot-directory';

const config: Config = loadConfigOrExit(configSchema);
const log = createLogger('trips-reset-directory', config);
const db = createDb(config.DATABASE_URL, 'trips', { min: 0, max: 1 });
const bus = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name: 'trips-reset-directory', log, credentials: natsCredentials(config) });
try {
  await resetPilotDirectory({ db, bus, pilots: createPilotRepository(db) });
  process.stdout.write('The pilot directory is empty and its consumer deleted: restart trips to replay the AUTH stream.\n');
} catch (error) {
  process.stderr.write(`Reset failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  await bus.close();
  await db.destroy();
}
