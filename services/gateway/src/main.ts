import { runService, startMetricsServer } from '@crewswap/kit';
import { createApp } from './app';
import { loadConfig } from './config';

await runService(async () => {
  const config = loadConfig();
  const service = await createApp(config);
  // The gateway's port is public, so its metrics are served on a port of their own.
  const metrics = await startMetricsServer(service.app.metrics.registry, { port: config.METRICS_PORT, host: config.HOST });
  return {
    ...service,
    port: config.PORT,
    host: config.HOST,
    async close() {
      await metrics.close();
      await service.close();
    },
  };
});
