export { createApp, type RealtimeAppOptions, type RealtimeService } from './app';
export { configSchema, type RealtimeConfig } from './config';
