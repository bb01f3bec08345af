export { createApp, type SwapsService } from './app';
export { configSchema, type Config as SwapsConfig } from './config';
// scripts/load.ts seeds the read model straight, as the events would have left it.
export { seedLoadReadModel } from './load-seed';
