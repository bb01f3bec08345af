export { createApp, type NotificationsService } from './app';
export { configSchema, type NotificationsConfig } from './config';
