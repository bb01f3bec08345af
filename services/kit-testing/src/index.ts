/**
 * Test support for the services' tests, benches and scripts: real Postgres and NATS per test file,
 * signed sessions, services started by name, event streams read as a browser would. Production
 * code never imports it (services/kit/test/test-imports.test.ts says so).
 */
export * from './database-and-bus';
export * from './services';
export * from './sse';
export * from './source-files';
