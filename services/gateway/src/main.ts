import { runService } from '@crewswap/kit';
import { createPublicApp } from './app';
import { configSchema } from './config';

// Forwarding writes the trace context into each call itself (forwarded-headers.ts): no client span per request.
await runService(configSchema, createPublicApp, { clientSpans: false });
