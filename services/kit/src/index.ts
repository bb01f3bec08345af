// The service kit: shared server plumbing, by concern. It imports no service; test support is
// the separate package @crewswap/kit-testing.
export * from './config';
export * from './clock';
export * from './paths';
export * from './runtime';
export * from './service';
export * from './outage-guard';
export * from './mail';
export * from './vapid';

export * from './http/app';
export * from './http/routes';
export * from './http/errors';
export * from './http/validate';
export * from './http/client-errors';
export * from './http/url-secrets';
export * from './http/idempotency';

export * from './sessions/sessions';
export * from './sessions/keys';
export * from './sessions/session-activity';
export * from './sessions/system-state';

export * from './events';
export * from './events/nats';
export * from './events/outbox';
export * from './events/outbox-pending';
export * from './events/rpc';
export * from './events/push';
export * from './events/settings-client';
export * from './events/follow-pilots';
export * from './events/restart';

export * from './data/db';
export * from './data/rows';
export * from './data/migrate-only';
export * from './data/prune';

export * from './observability/logger';
export * from './observability/metrics';
export * from './observability/runtime-metrics';
export * from './observability/tracing';
