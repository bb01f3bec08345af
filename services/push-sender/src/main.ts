import { runService } from '@crewswap/kit';
import { createApp } from './app';
import { configSchema } from './config';

await runService(configSchema, createApp);
