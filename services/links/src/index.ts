export { createApp, type LinksApp } from './app';
export { configSchema, type Config as LinksConfig } from './config';
