export { createApp, type SwapsService } from './app';
export { configSchema, type Config as SwapsConfig } from './config';
