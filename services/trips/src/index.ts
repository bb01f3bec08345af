export { createApp, type AppOptions as TripsAppOptions, type TripsApp } from './app';
export { configSchema, type Config as TripsConfig } from './config';
// scripts/load.ts seeds thousands of pilots' rosters straight into the tables, without events.
export { seedLoadRosters } from './load-seed';
