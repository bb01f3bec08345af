import { loadConfig, runService } from '@crewswap/kit';
import { createApp } from './app';
import { configSchema } from './config';

await runService(async () => {
  const config = loadConfig(configSchema);
  const service = await createApp(config);
  return { app: service.app, runtime: service.runtime, close: service.close, port: config.PORT, host: config.HOST };
});
