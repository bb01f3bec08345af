import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CALENDAR_FEED_MESSAGES, SERVICE_WORKER_PATH, WEB_MANIFEST_PATH } from '@crewswap/proto';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { createLogger, createServiceApp, forbidden, HttpError, notFound, startMetricsServer, type ReadinessCheck } from '@crewswap/kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerApiDocs } from './api-docs';
import { limitBodies } from './body-limit';
import type { Config } from './config';
import { registerForwarding } from './forwarding';
import { replicasOf, type Replicas } from './replicas';
import { answeredByGateway, API_DOCS_PATH, ownerOf, type ServiceName } from './route-table';
import { apiSecurityHeaders, securityHeaders } from './security-headers';

/** Paths the web app routes itself; each gets index.html. */
const SPA_ROUTES = ['/', '/upload-roster', '/share-roster', '/admin', '/admin/login', '/admin-preview'];

/** Mutating paths that act on a signed link alone (no session), so no other origin can misuse a pilot's cookie there. */
const SIGNED_LINKS = /^\/api\/notifications\/digest\/unsubscribe$/;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RATE_LIMITED = /^\/api\/(auth\/|admin\/login$)/;
const CALENDAR_FEED = /^\/api\/calendar\/[^/]+\.ics$/;
const DOT_SEGMENT = /\/(\.|%2e){1,2}(\/|$)/i;
/** How long /readyz waits for an upstream's /healthz. */
const UPSTREAM_PROBE_MS = 1000;

/**
 * Readiness of the gateway: whether it reaches its upstreams (their /healthz, which answers while
 * the process runs, so one service's database does not take the gateway out too). Each upstream
 * is reported; the gateway is ready while it reaches at least one, since every replica would
 * fail the same upstream alike and taking them all out would only make the rest unreachable.
 * An upstream with replicas is reached while one of them answers.
 */
export function upstreamReadiness(services: Record<ServiceName, Replicas>): Record<string, ReadinessCheck> {
  let round: { at: number; result: Promise<Record<string, boolean>> } | undefined;
  // One round of probes serves every check of one /readyz (or metrics scrape).
  const probeAll = () => {
    if (!round || Date.now() - round.at > UPSTREAM_PROBE_MS) {
      const entries = Object.entries(services).map(async ([name, { urls }]) => {
        const probes = urls.map((url) => fetch(`${url}/healthz`, { signal: AbortSignal.timeout(UPSTREAM_PROBE_MS) }).then((response) => response.ok, () => false));
        return [name, (await Promise.all(probes)).some(Boolean)] as const;
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

/**
 * fastify's own reading of a hop count trusts nothing (it cannot check the nearest peer), so the
 * count is a function: the socket's peer and the hops behind it up to N are proxies.
 */
function trustProxyOption(trust: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export function upstreams(config: Config): Record<ServiceName, Replicas> {
  return {
    auth: replicasOf(config.AUTH_URL),
    trips: replicasOf(config.TRIPS_URL),
    swaps: replicasOf(config.SWAPS_URL),
    admin: replicasOf(config.ADMIN_URL),
    notifications: replicasOf(config.NOTIFICATIONS_URL),
    'roster-ingest': replicasOf(config.ROSTER_INGEST_URL),
    realtime: replicasOf(config.REALTIME_URL),
    links: replicasOf(config.LINKS_URL),
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
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // Every request from outside starts a trace and a request id of our own (deploy/README.md 'Follow a request (traces)').
    trustRequestContext: false,
    parseJsonBodies: false,
    // Cookies are passed on to the services unread.
    parseCookies: false,
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

  // API answers get the API set; forwarding swaps in the page set for a service's HTML answer.
  const pageHeaders = securityHeaders();
  const apiHeaders = apiSecurityHeaders(pageHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    const { url } = request;
    // The API reference is a page; its JSON twin under it takes the page set too, harmlessly.
    const api = url.startsWith('/api/') && !url.startsWith(API_DOCS_PATH);
    reply.headers(api ? apiHeaders : pageHeaders);
    done();
  });

  // Phones on crew-room wifi: the app's bundle, the airport list and a pilot's calendar feed
  // (about 30 KB of text for 60 trips, a few KB gzipped, fetched by the phone's calendar) are worth
  // compressing. An answer under 1 KB is sent as it is: gzip would cost more time than it saves
  // bytes. The event stream is left out, since compression would buffer it.
  await app.register(compress, {
    encodings: ['gzip'],
    threshold: 1024,
    customTypes: /^(application\/(json|javascript|manifest\+json)|text\/(html|css|javascript|plain|calendar)|image\/svg\+xml)/,
    // Request bodies pass to the services as they came, with their Content-Encoding: unpacked
    // here, a service would be handed plain bytes still labelled gzip.
    globalDecompression: false,
  });

  // Only the auth paths are limited: the limiter runs for those alone, not for every request.
  await app.register(rateLimit, { global: false });
  const limitAuth = app.rateLimit({
    max: config.AUTH_RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many attempts from this network. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`),
  });

  // Per feed, not per address: a calendar service (Google's, Apple's) fetches every subscriber's
  // feed from a few addresses of its own, and one feed asked for too often is what to hold back.
  const limitFeed = app.rateLimit({
    max: config.CALENDAR_FEED_RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request) => `calendar-feed ${request.url.split('?')[0]}`,
    errorResponseBuilder: (_request, context) => new HttpError(429, CALENDAR_FEED_MESSAGES.tooMany(Math.ceil(context.ttl / 1000))),
  });

  app.addHook('onRequest', (request, reply, done) => {
    const { url } = request;
    if (!url.startsWith('/api/')) return done();
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (answeredByGateway(request.method, path)) return done();
    // A path that climbs out of /api (/api/trips/../../metrics) must never reach a service.
    if (DOT_SEGMENT.test(path) || !ownerOf(path)) return done(notFound(`No such API path: ${request.method} ${path}`));
    // The digest's one-click unsubscribe comes from a mail client, not the app: its signed link, not a cookie, is what it acts on.
    if (MUTATING.has(request.method) && !SIGNED_LINKS.test(path)) {
      const origin = request.headers.origin;
      if (!origin || !allowedOrigins.has(origin)) return done(forbidden('This request did not come from the CrewSwap app and was refused.'));
    }
    if (RATE_LIMITED.test(path)) return void limitAuth.call(app, request, reply).then(() => done(), done);
    if (CALENDAR_FEED.test(path)) return void limitFeed.call(app, request, reply).then(() => done(), done);
    done();
  });

  registerApiDocs(app);
  await registerForwarding(app, services, pageHeaders);

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
    // A roster shared to the installed app is POSTed here; the service worker takes it. Without a
    // worker yet (the first visit), the pilot still lands in the app instead of on an error.
    await app.register(async (share) => {
      share.removeAllContentTypeParsers();
      share.addContentTypeParser('*', (_request, payload, done) => {
        payload.resume();
        payload.on('end', () => done(null));
      });
      share.post('/share-roster', (_request, reply) => reply.redirect('/share-roster', 303));
    });
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
