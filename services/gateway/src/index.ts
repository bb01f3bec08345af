export { createApp, type GatewayOptions } from './app';
export { configSchema, type Config as GatewayConfig } from './config';
// The body limits the gateway applies: the chart's ingress must let bodies this large through.
export { bodyLimitOf, DEFAULT_BODY_LIMIT } from './route-table';
