export { createApp, type AppOptions as RosterIngestAppOptions, type RosterIngestApp } from './app';
export { configSchema, type Config as RosterIngestConfig } from './config';
