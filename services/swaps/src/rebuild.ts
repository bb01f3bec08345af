/**
 * `npm run rebuild -w @crewswap/swaps`: empties the swaps read model and replays the auth, trips
 * and admin streams from the start, then prints what it applied. Safe while the service runs.
 */
import { createLogger, loadConfigOrExit, startRuntime, systemClock } from '@crewswap/kit';
import { configSchema, type Config } from './config';
import { createReadModelRepository } from './data/read-model';
import { rebuildReadModel } from './events/replay';
import { migrations } from './migrations';

const config: Config = loadConfigOrExit(configSchema);
const log = createLogger('swaps-rebuild', config);
const runtime = await startRuntime({ name: 'swaps-rebuild', schema: 'swaps', migrations, config, log });
try {
  const report = await rebuildReadModel({
    db: runtime.db,
    bus: runtime.bus,
    log,
    readModel: createReadModelRepository(runtime.db),
    clock: systemClock,
    settingsTimeoutMs: config.SETTINGS_RPC_TIMEOUT_MS,
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} catch (error) {
  process.stderr.write(`Rebuild failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  await runtime.close();
}
