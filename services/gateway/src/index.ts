export { createApp } from './app';
export { configSchema, type Config as GatewayConfig } from './config';
// The body limits the gateway applies: the chart's ingress must let bodies this large through.
export { bodyLimitOf, DEFAULT_BODY_LIMIT } from './route-table';
// The API reference scripts/openapi.ts writes to docs/openapi.json.
export { apiDocumentText } from './api-docs';
