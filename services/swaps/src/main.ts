import { runService } from '@crewswap/kit';
import { createApp } from './app';
import { loadConfig } from './config';

void runService(async () => {
  const config = loadConfig();
  const service = await createApp(config);
  return { ...service, port: config.PORT, host: config.HOST };
});
