export { createApp, type NotificationsAppOptions, type NotificationsService } from './app';
export { configSchema, type NotificationsConfig } from './config';
