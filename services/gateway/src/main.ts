import { runService } from '@crewswap/kit';
import { createPublicApp } from './app';
import { configSchema } from './config';

// The proxy writes the trace context into each call itself (proxy.ts): no client span per request.
await runService(configSchema, createPublicApp, { clientSpans: false });
