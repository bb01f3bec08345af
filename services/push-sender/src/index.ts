export { createApp, type PushSender } from './app';
export { configSchema, type Config } from './config';
