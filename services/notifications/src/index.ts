export { createApp, type NotificationsService } from './app';
export { configSchema, type NotificationsConfig } from './config';
export { createPushSender, type PushSender } from './push/push-sender-app';
export { pushSenderConfigSchema, type PushSenderConfig } from './config';
