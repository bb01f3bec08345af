export { createApp, type AppOptions as TripsAppOptions, type TripsApp } from './app';
export { configSchema, type Config as TripsConfig } from './config';
