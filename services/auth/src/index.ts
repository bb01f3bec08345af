export { createApp, type AuthApp } from './app';
export { configSchema, type Config as AuthConfig } from './config';
// scripts/load.ts seeds thousands of pilots straight into the tables, without events.
export { seedLoadPilots } from './load-seed';
