import { loadConfig, runService } from '@crewswap/kit';
import { createApp } from './app';
import { configSchema } from './config';

void runService(async () => {
  const config = loadConfig(configSchema);
  const service = await createApp(config);
  return { ...service, port: config.PORT, host: config.HOST };
});
