import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SERVICE_WORKER_PATH, WEB_MANIFEST_PATH } from '@crewswap/proto';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import httpProxy from '@fastify/http-proxy';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { createLogger, createServiceApp, forbidden, HttpError, notFound, REQUEST_ID_HEADER, startMetricsServer, type ReadinessCheck } from '@crewswap/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isBodyTooLarge, limitBodies, refuse } from './body-limit';
import type { Config } from './config';
import { ownerOf, type ServiceName } from './route-table';

/** Paths the web app routes itself; each gets index.html. */
const SPA_ROUTES = ['/', '/upload-roster', '/share-roster', '/admin', '/admin/login'];
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RATE_LIMITED = /^\/api\/(auth\/|admin\/login$)/;
const DOT_SEGMENT = /\/(\.|%2e){1,2}(\/|$)/i;
/** How long /readyz waits for an upstream's /healthz. */
const UPSTREAM_PROBE_MS = 1000;

/**
 * Readiness of the gateway: whether it reaches its upstreams (their /healthz, which answers while
 * the process runs, so one service's database does not take the gateway out too). Each upstream
 * is reported; the gateway is ready while it reaches at least one, since every replica would
 * fail the same upstream alike and taking them all out would only make the rest unreachable.
 */
export function upstreamReadiness(services: Record<ServiceName, string>): Record<string, ReadinessCheck> {
  let round: { at: number; result: Promise<Record<string, boolean>> } | undefined;
  // One round of probes serves every check of one /readyz (or metrics scrape).
  const probeAll = () => {
    if (!round || Date.now() - round.at > UPSTREAM_PROBE_MS) {
      const entries = Object.entries(services).map(async ([name, url]) => {
        const up = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(UPSTREAM_PROBE_MS) }).then((response) => response.ok, () => false);
        return [name, up] as const;
      });
      round = { at: Date.now(), result: Promise.all(entries).then(Object.fromEntries) };
    }
    return round.result;
  };
  const checks: Record<string, ReadinessCheck> = {
    upstreams: async () => Object.values(await probeAll()).some(Boolean),
  };
  for (const name of Object.keys(services)) checks[name] = { required: false, check: async () => (await probeAll())[name] === true };
  return checks;
}

export function upstreams(config: Config): Record<ServiceName, string> {
  return {
    auth: config.AUTH_URL,
    trips: config.TRIPS_URL,
    swaps: config.SWAPS_URL,
    admin: config.ADMIN_URL,
    notifications: config.NOTIFICATIONS_URL,
    'roster-ingest': config.ROSTER_INGEST_URL,
    realtime: config.REALTIME_URL,
    links: config.LINKS_URL,
  };
}

export async function createApp(config: Config): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const log = createLogger('gateway', config);
  const indexHtml = join(config.WEB_DIST, 'index.html');
  const webBuilt = existsSync(indexHtml);
  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  const services = upstreams(config);
  const app = createServiceApp({
    name: 'gateway',
    logger: log,
    readiness: upstreamReadiness(services),
    // This port is public: metrics are served apart (main.ts, METRICS_PORT).
    serveMetrics: false,
    trustProxy: false,
    parseJsonBodies: false,
    // Any other page is the app's own 'Page Not Found' screen, answered with a real 404.
    notFoundHandler: (request, reply) => {
      if (!webBuilt || request.url.startsWith('/api/') || request.method !== 'GET') {
        return reply.status(404).send({ error: `No such path: ${request.method} ${request.url.split('?')[0]}` });
      }
      return sendIndex(reply.status(404));
    },
  });
  const allowedOrigins = new Set(
    [config.APP_ORIGIN, ...config.EXTRA_ORIGINS.split(',')].map((origin) => origin.trim().replace(/\/$/, '')).filter(Boolean),
  );
  // First of the hooks: a body too large is refused before anything else looks at the request.
  limitBodies(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Ant Design writes its CSS-in-JS into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // wa.me links and QR images open elsewhere; the app itself loads nothing cross-origin.
    crossOriginEmbedderPolicy: false,
  });

  // A 304 (a service's answer to If-None-Match, as the Master Calendar's) has no body: sent as
  // null, compression leaves it alone rather than gzip nothing and label the 304 gzip.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode !== 304) return payload;
    if (payload instanceof Readable) payload.resume();
    return null;
  });

  // Phones on crew-room wifi: the app's bundle and the airport list are worth compressing. The
  // event stream is left out, since compression would buffer it.
  await app.register(compress, {
    encodings: ['gzip'],
    threshold: 1024,
    customTypes: /^(application\/(json|javascript|manifest\+json)|text\/(html|css|javascript|plain)|image\/svg\+xml)/,
  });

  await app.register(rateLimit, {
    global: true,
    max: config.AUTH_RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    allowList: (request: FastifyRequest) => !RATE_LIMITED.test(request.url.split('?')[0] ?? ''),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many attempts from this network. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`),
  });

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    // A path that climbs out of /api (/api/trips/../../metrics) must never reach a service.
    if (DOT_SEGMENT.test(request.url.split('?')[0] ?? '')) throw notFound(`No such API path: ${request.method} ${request.url.split('?')[0]}`);
    if (MUTATING.has(request.method)) {
      const origin = request.headers.origin;
      if (!origin || !allowedOrigins.has(origin)) {
        throw forbidden('This request did not come from the CrewSwap app and was refused.');
      }
    }
    if (!ownerOf(request.url)) throw notFound(`No such API path: ${request.method} ${request.url.split('?')[0]}`);
  });

  await app.register(httpProxy, {
    upstream: '',
    prefix: '/api',
    rewritePrefix: '/api',
    replyOptions: {
      getUpstream: (request) => services[ownerOf(request.url)!],
      rewriteRequestHeaders: (request, headers) => ({ ...headers, [REQUEST_ID_HEADER]: String(request.id) }),
      rewriteHeaders: (headers, request) => {
        // Hop-by-hop headers describe the service's connection to the gateway, not the client's:
        // passed on, a service's 'keep-alive' would overrule a client's 'Connection: close'.
        const { connection: _connection, 'keep-alive': _keepAlive, ...endToEnd } = headers;
        return request?.url.startsWith('/api/sse/') ? { ...endToEnd, 'x-accel-buffering': 'no', 'cache-control': 'no-cache' } : endToEnd;
      },
      onError: (reply, { error }) => {
        // A client's body too large is its own mistake, not a service being down.
        if (isBodyTooLarge(error)) return refuse(reply);
        const service = ownerOf(reply.request.url);
        reply.log.warn({ err: error, service }, 'upstream unavailable');
        reply
          .status(503)
          .send({ error: `The ${service} service is not available right now. Please try again shortly.` });
      },
    },
  });

  if (webBuilt) {
    // Built assets carry a content hash in their names, so browsers may keep them for good.
    // wildcard: files are looked up per request, so a rebuilt web app is served without a restart.
    await app.register(fastifyStatic, { root: config.WEB_DIST, wildcard: true, index: false, maxAge: '365d', immutable: true });
    for (const path of SPA_ROUTES) {
      app.get(path, (_request, reply) => sendIndex(reply));
    }
    // The service worker and the manifest keep their names across builds: a browser must ask
    // for them afresh every time, or an installed app would run an old worker for a year.
    // Their types come from the file names (a service worker must be served as JavaScript).
    for (const path of [SERVICE_WORKER_PATH, WEB_MANIFEST_PATH]) {
      app.get(path, (_request, reply) => {
        if (!existsSync(join(config.WEB_DIST, path.slice(1)))) return reply.status(404).send({ error: `No such path: GET ${path}` });
        return reply.header('cache-control', 'no-cache').sendFile(path.slice(1), { cacheControl: false });
      });
    }
  } else {
    app.get('/', async (_request, reply) =>
      reply.type('text/plain').send('The web app is not built yet: run `npm run build -w @crewswap/web`, then reload.'),
    );
  }

  return { app, close: () => app.close() };
}

/**
 * The gateway as `main.ts` runs it: its port is public, so its metrics are served on a port of
 * their own (METRICS_PORT), closed with it.
 */
export async function createPublicApp(config: Config): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const { app } = await createApp(config);
  const metrics = await startMetricsServer(app.metrics.registry, { port: config.METRICS_PORT, host: config.HOST }).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  return {
    app,
    async close() {
      await app.close();
      await metrics.close();
    },
  };
}
