export { createApp, type AdminService } from './app';
export { configSchema, type AdminConfig, LOCAL_ADMIN_PASSWORD } from './config';
