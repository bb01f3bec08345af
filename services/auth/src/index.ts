export { createApp, type AuthApp } from './app';
export { configSchema, type Config as AuthConfig } from './config';
