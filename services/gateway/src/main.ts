import { runService } from '@crewswap/kit';
import { createPublicApp } from './app';
import { configSchema } from './config';

await runService(configSchema, createPublicApp);
