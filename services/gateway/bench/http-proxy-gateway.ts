// The gateway as it is, but with @fastify/http-proxy (the architecture's first choice) in place of
// its own proxy (src/proxy.ts), for the bench to measure the two side by side. Not a product.
import httpProxy from '@fastify/http-proxy';
import { REQUEST_ID_HEADER, runService } from '@crewswap/kit';
import { createPublicApp } from '../src/app';
import { configSchema } from '../src/config';
import { ownerOf } from '../src/route-table';

await runService(configSchema, (config) =>
  createPublicApp(config, {
    async proxy(app, services) {
      await app.register(httpProxy, {
        upstream: '',
        prefix: '/api',
        rewritePrefix: '/api',
        // As the gateway's own: 64 kept-alive connections per service, no pipelining.
        undici: { connections: 64, pipelining: 1 },
        replyOptions: {
          getUpstream: (request) => services[ownerOf(request.url)!],
          rewriteRequestHeaders: (request, headers) => ({ ...headers, [REQUEST_ID_HEADER]: String(request.id) }),
        },
      });
    },
  }),
);
