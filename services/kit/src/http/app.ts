import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { answerClientError, EDGE_MAX_HEADER_BYTES, SERVICE_MAX_HEADER_BYTES } from './client-errors';
import { ALREADY_EXISTS_MESSAGE, HttpError, isMalformedMultipart, isUniqueViolation, MALFORMED_MULTIPART_MESSAGE, unreachableDependency } from './errors';
import { createMetrics, trackDependencies, type Metrics } from '../observability/metrics';
import { edgeTracingPlugin, requestTraceFields, traceFields, tracingPlugin } from '../observability/tracing';
import { urlWithoutSecrets } from './url-secrets';
import { jsonNestedDeeperThan, TOO_DEEP_MESSAGE } from './validate';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Whether a dependency is reachable. A plain check decides readiness ("send me traffic"); one
 * marked `required: false` is only reported, in /readyz and the `dependency_up` metric.
 */
export type ReadinessCheck = (() => Promise<boolean>) | { check: () => Promise<boolean>; required: false };

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  /** Readiness checks by name (database; nats, reported only). */
  readiness: Record<string, ReadinessCheck>;
  /** False where /metrics must not be on the app's own port (the gateway's is public). */
  serveMetrics?: boolean;
  bodyLimit?: number;
  /** Requests to trust `x-forwarded-*` from (services: the gateway; the gateway: TRUST_PROXY). */
  trustProxy?: boolean | string[] | ((address: string, hop: number) => boolean);
  /** False where bodies are passed on unread (the gateway's proxy brings its own parsers). */
  parseJsonBodies?: boolean;
  /** False where no route reads a cookie (the gateway passes them on unread). */
  parseCookies?: boolean;
  /**
   * False at the public edge (the gateway): a client's `x-request-id` and trace context are
   * ignored, so every request starts a trace and an id of our own, its span kept with the request
   * rather than made the active context (`edgeTracingPlugin`). Services trust the gateway's.
   */
  trustRequestContext?: boolean;
  /** Check every answer of a kit route against its proto schema (RESPONSE_VALIDATION; tests). */
  responseValidation?: boolean;
  /** Replaces the JSON 404 (the gateway answers unknown pages with the web app). */
  notFoundHandler?: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
    /** Every route the service registered, for tests that exercise them all (the fuzz test). */
    routeList: { method: string; url: string }[];
    /** Whether kit routes check their answers with zod (see `routes`). */
    responseValidation: boolean;
  }
}

const UNTIMED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** Each request's trace, for its access line. */
const traced = new WeakMap<FastifyRequest, ReturnType<typeof traceFields>>();

/** Requests answered with an event stream: timed by `sse_stream_duration_seconds` instead. */
const streams = new WeakSet<FastifyRequest>();

/**
 * Marks a request whose answer is an event stream (realtime's, and the gateway's passing it on):
 * it counts in `sse_streams_open` while open and in `sse_stream_duration_seconds` when it closes,
 * not as a request. `route` names it (by default the route's own path).
 */
export function trackStream(request: FastifyRequest, reply: FastifyReply, route = request.routeOptions.url ?? 'unmatched'): void {
  if (streams.has(request)) return;
  streams.add(request);
  const { metrics } = request.server;
  metrics.streamsOpen.inc({ route });
  reply.raw.once('close', () => {
    metrics.streamsOpen.dec({ route });
    metrics.streamDuration.observe({ route }, reply.elapsedTime / 1000);
  });
}

/**
 * The fastify instance every service starts from: request ids carried from the gateway, one error
 * shape, health, readiness and metrics. The service adds its routes to it.
 */
export function createServiceApp(options: ServiceAppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    requestIdHeader: options.trustRequestContext === false ? false : REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? true,
    logController: new AccessLog(),
    http: { maxHeaderSize: options.trustRequestContext === false ? EDGE_MAX_HEADER_BYTES : SERVICE_MAX_HEADER_BYTES },
    clientErrorHandler: answerClientError,
  }) as unknown as FastifyInstance;

  // At the edge a client must not pick the trace its request joins (nor, forwarded, the trace a
  // service records it in): every request starts one of its own, kept with the request.
  const edge = options.trustRequestContext === false;
  app.register(edge ? edgeTracingPlugin() : tracingPlugin());
  // Runs after the tracing plugin's hook, inside the request's span: the access line, written
  // once the span has ended and outside its context, names the trace from here.
  app.register(
    Object.assign((instance: FastifyInstance, _options: unknown, done: () => void) => {
      instance.addHook('onRequest', (request, _reply, next) => {
        traced.set(request, edge ? requestTraceFields(request) : traceFields());
        next();
      });
      done();
    }, { [Symbol.for('skip-override')]: true }),
  );

  // A POST without a body (logout, send-notifications) may still say it is JSON, as curl -H and
  // many clients do; treat it as no body rather than as broken JSON.
  if (options.parseJsonBodies !== false) {
    // A compressed body would be read as if it were plain; nothing here unpacks one (nor should,
    // with no bound on what it unpacks to), so it is refused before it is read.
    app.addHook('onRequest', (request, _reply, done) => {
      const encoding = request.headers['content-encoding']?.trim().toLowerCase();
      if (encoding && encoding !== 'identity' && hasBody(request)) return done(new HttpError(415, UNSUPPORTED_ENCODING_MESSAGE));
      done();
    });
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      // Bodies are read as UTF-8: one that says it is anything else would be read wrong.
      const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return done(new HttpError(415, UNSUPPORTED_CHARSET_MESSAGE), undefined);
      const text = body.toString();
      if (text.trim() === '') return done(null, undefined);
      if (jsonNestedDeeperThan(text)) return done(new HttpError(400, TOO_DEEP_MESSAGE), undefined);
      return parseJson(request, text, done);
    });
  }

  const metrics = createMetrics(options.name);
  app.decorate('metrics', metrics);
  const routeList: { method: string; url: string }[] = [];
  app.decorate('routeList', routeList);
  app.decorate('responseValidation', options.responseValidation ?? false);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeList.push({ method, url: route.url });
  });
  if (options.parseCookies !== false) app.register(cookie);

  // Hooks in callback form: every request runs them, and an async hook costs a promise each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    // Every 503 says when to try again.
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    // Probes and scrapes come every few seconds whatever the traffic, and a stream's time is its
    // life: either would drown what pilots wait for.
    if (UNTIMED_ROUTES.has(route) || streams.has(request)) return done();
    metrics.httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      const { title, fields, extra } = error.options;
      return reply.status(error.status).send({ ...extra, error: error.message, ...(title ? { title } : {}), ...(fields ? { fields } : {}) });
    }
    // Two requests raced past a read-then-insert: a conflict, never a server error.
    if (isUniqueViolation(error)) return reply.status(409).send({ error: ALREADY_EXISTS_MESSAGE });
    if (isMalformedMultipart(error)) return reply.status(400).send({ error: MALFORMED_MULTIPART_MESSAGE });
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({ error: clientMessage(error) });
    }
    // A dependency that cannot be reached is an outage the client can wait out, not a bug.
    const dependency = unreachableDependency(error);
    if (dependency) {
      request.log.error({ err: error, dependency }, `${dependency} unavailable`);
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ error: `The ${options.name} service is not available right now. Please try again shortly.` });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });

  app.setNotFoundHandler(
    options.notFoundHandler ??
      ((request, reply) => {
        reply.status(404).send({ error: `No such path: ${request.method} ${request.url.split('?')[0]}` });
      }),
  );

  const probes = Object.entries(options.readiness).map(([name, check]) => ({
    name,
    required: typeof check === 'function',
    check: typeof check === 'function' ? check : check.check,
  }));
  const probe = () => Promise.all(probes.map(async (p) => ({ ...p, ok: await p.check().catch(() => false) })));
  trackDependencies(metrics, async () => Object.fromEntries((await probe()).map((p) => [p.name, p.ok])));

  app.get('/healthz', async () => ({ status: 'ok' }));
  // Ready means "send me traffic": only what a request needs decides it. NATS is reported but
  // not required, since the outbox holds events while it is away and writes still succeed.
  app.get('/readyz', async (_request, reply) => {
    const results = await probe();
    const checks = Object.fromEntries(results.map((p) => [p.name, p.ok]));
    const ready = results.every((p) => p.ok || !p.required);
    const status = !ready ? 'not ready' : results.every((p) => p.ok) ? 'ready' : 'degraded';
    return reply.status(ready ? 200 : 503).send({ status, checks });
  });
  if (options.serveMetrics !== false) {
    app.get('/metrics', async (_request, reply) => {
      reply.header('content-type', metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  }

  return app;
}

/**
 * One access line per request, written when it completes, instead of fastify's two (incoming and
 * completed, each serialising the whole request or reply): the gateway and a service each log a
 * request once, with what an operator reads (method, path, status, time).
 */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: urlWithoutSecrets(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, ...traced.get(request) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

export const UNSUPPORTED_ENCODING_MESSAGE = 'Compressed request bodies are not supported: send the body without Content-Encoding.';
export const UNSUPPORTED_CHARSET_MESSAGE = 'The request body must be UTF-8 (charset=utf-8).';

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** Seconds a 503 asks the client to wait: outages we answer this way are restarts and blips. */
export const RETRY_AFTER_SECONDS = 5;

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // The gateway's words for the same refusal, so a client sees one message wherever it hits.
      return 'Request body too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the request body as JSON.';
    default:
      return error.message;
  }
}
