import FastifyOtelInstrumentation from '@fastify/otel';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, NoopSpanProcessor, ParentBasedSampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { urlWithoutSecrets } from '../http/url-secrets';

/**
 * One trace across every hop (STYLE.md). The gateway starts a trace for each request; HTTP (the
 * gateway writes each request's span into its call, `injectRequestTrace`; a service's own calls
 * carry it by the undici and node:http instrumentations), RPC
 * (request headers), events (the outbox row keeps the writer's context, the relay publishes it
 * in the message headers) and direct messages (`publishDirect`, in the headers) carry W3C trace
 * context; every reader in the kit continues it with `withMessageContext`;
 * every log line names the trace (the logger's mixin).
 */
const tracer = trace.getTracer('@crewswap/kit');

/** Incoming HTTP spans: a fastify plugin, so they work alike under tsx, jest and the bundles. */
const fastifyInstrumentation = new FastifyOtelInstrumentation({
  // One span per request (and its handler), not one per hook.
  instrumentHooks: false,
  ignorePaths: (route) => UNTRACED_PATHS.has(route.url.split('?')[0] ?? ''),
  // The span's url.path is the whole url, query and all: a key in it must not reach Tempo.
  requestHook: (span, request) => {
    const safe = urlWithoutSecrets(request.url);
    if (safe !== request.url) span.setAttribute('url.path', safe);
  },
});
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The fastify plugin that opens a span for each request, continuing the caller's trace context. */
export function tracingPlugin() {
  return fastifyInstrumentation.plugin();
}

/** The span of each request at the edge, kept with the request (see `edgeTracingPlugin`). */
const edgeSpans = new WeakMap<FastifyRequest, Span>();

/**
 * Request spans at the public edge (the gateway): every request starts a trace of its own, whatever
 * trace context a client sends, and its span is kept with the request instead of being made the
 * active context. Nothing the gateway runs while passing a request on needs an active context,
 * and entering one makes every asynchronous step of every request carry it (async_hooks): that
 * was the largest part of what the hop cost. The proxy writes the span into its call with
 * `injectRequestTrace`; the access line names it with `requestTraceFields`.
 */
export function edgeTracingPlugin() {
  const end = (request: FastifyRequest, statusCode: number) => {
    const span = edgeSpans.get(request);
    if (!span) return;
    edgeSpans.delete(request);
    span.setAttribute('http.response.status_code', statusCode);
    if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  return Object.assign(
    (app: FastifyInstance, _options: unknown, done: () => void) => {
      app.addHook('onRequest', (request, _reply, next) => {
        const path = request.url.split('?')[0] ?? '';
        if (!UNTRACED_PATHS.has(path)) {
          const attributes: Attributes = { 'http.request.method': request.method, 'url.path': urlWithoutSecrets(path) };
          if (request.routeOptions.url) attributes['http.route'] = request.routeOptions.url;
          edgeSpans.set(request, tracer.startSpan('request', { kind: SpanKind.SERVER, attributes, root: true }, ROOT_CONTEXT));
        }
        next();
      });
      app.addHook('onError', (request, _reply, error, next) => {
        const span = edgeSpans.get(request);
        if (span) failed(span, error);
        next();
      });
      // Ends once the answer's head is ready: an event stream's span is its start, not its life.
      app.addHook('onSend', (request, reply, payload, next) => {
        end(request, reply.statusCode);
        next(null, payload);
      });
      // A request the client left before any answer.
      app.addHook('onResponse', (request, reply, next) => {
        end(request, reply.statusCode);
        next();
      });
      done();
    },
    { [Symbol.for('skip-override')]: true },
  );
}

/** Writes the request's edge span into outgoing headers, as the service's parent. */
export function injectRequestTrace(request: FastifyRequest, headers: Record<string, string | string[]>): void {
  const span = edgeSpans.get(request);
  if (span) propagation.inject(trace.setSpan(ROOT_CONTEXT, span), headers);
}

/** The trace and span of a request's edge span, for log lines; nothing when it has none. */
export function requestTraceFields(request: FastifyRequest): { traceId: string; spanId: string } | Record<string, never> {
  const span = edgeSpans.get(request);
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/** The headers W3C trace context travels in: what the gateway refuses from a client. */
export const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

let sdk: NodeSDK | undefined;
let instrumentations: (HttpInstrumentation | UndiciInstrumentation | PgInstrumentation)[] = [];

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP endpoint (Tempo, a collector); spans are exported only when set. */
  otlpEndpoint?: string;
  /** More span processors (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
  /**
   * A span for each outgoing HTTP call (the undici and node:http instrumentations), default on.
   * The gateway turns it off: it writes the trace context into its calls itself, a client span on
   * every proxied request was a large part of what the hop cost, and the node:http
   * instrumentation enters a context around every incoming request even when it records none.
   */
  clientSpans?: boolean;
}

/**
 * Starts OpenTelemetry for this process, once. Without an endpoint (or a processor) nothing is
 * recorded: spans are never sampled, yet they still get ids, so the trace id still crosses every
 * hop and names every log line, at almost no cost.
 *
 * The http and pg instrumentations patch modules as they are required (pg when knex first loads
 * it, after this runs); where that cannot happen (jest's own module loader) they stay idle and the
 * trace still crosses every hop, since the kit carries the context itself. Incoming requests are
 * the fastify plugin's (`createServiceApp` registers it), so http's own server spans are off.
 */
export function startTracing(options: TracingOptions): void {
  if (sdk) return;
  const processors = [
    ...(options.otlpEndpoint ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, '')}/v1/traces` }))] : []),
    ...(options.spanProcessors ?? []),
  ];
  instrumentations = [
    // Only requests made for a traced request, not readiness probes.
    ...(options.clientSpans === false
      ? []
      : [new HttpInstrumentation({ ignoreIncomingRequestHook: () => true }), new UndiciInstrumentation({ requireParentforSpans: true })]),
    new PgInstrumentation({ requireParentSpan: true }),
  ];
  sdk = new NodeSDK({
    serviceName: options.serviceName,
    // The SDK registers no tracer without a processor, and then no ids would exist to log.
    spanProcessors: processors.length > 0 ? processors : [new NoopSpanProcessor()],
    sampler: processors.length > 0 ? new ParentBasedSampler({ root: new AlwaysOnSampler() }) : new AlwaysOffSampler(),
    // Metrics are prom-client's and logs pino's: the SDK's own defaults would post both to localhost.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations,
  });
  sdk.start();
}

export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
  // Their hooks are the process's (require, diagnostics channels), not the SDK's: a test file
  // that traced must not leave them patching the next one's requests.
  for (const instrumentation of instrumentations) instrumentation.disable();
}

/** The trace and span of the current context, for log lines; nothing outside a trace. */
export function traceFields(): { traceId: string; spanId: string } | Record<string, never> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/** The current trace context as W3C headers (an outbox row keeps it with its event); null outside a trace. */
export function currentTraceContext(): Record<string, string> | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : null;
}

/** The context a stored carrier (an outbox row's) names; no trace when it names none. */
export function contextOf(carrier: Record<string, string> | null | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, carrier ?? {});
}

const natsSetter = { set: (carrier: MsgHdrs, key: string, value: string) => carrier.set(key, value) };
const natsGetter = {
  get: (carrier: MsgHdrs | undefined, key: string) => carrier?.get(key) || undefined,
  keys: (carrier: MsgHdrs | undefined) => carrier?.keys() ?? [],
};

/** NATS headers holding the given (else the current) trace context. */
export function traceHeaders(from: Context = context.active(), into: MsgHdrs = natsHeaders()): MsgHdrs {
  propagation.inject(from, into, natsSetter);
  return into;
}

/**
 * Links to the traces some messages' headers carry (none for a message that carries none): work
 * that handles a batch of messages at once, each from a trace of its own, names them all this way.
 */
export function messageLinks(headers: readonly (MsgHdrs | undefined)[]): Link[] {
  return headers.flatMap((carrier) => {
    const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier, natsGetter));
    return linked && trace.isSpanContextValid(linked) ? [{ context: linked }] : [];
  });
}

/**
 * Runs `fn` in a span that continues the trace the message's headers carry (a new trace when they
 * carry none): the one call each kind of consumer makes around its handler.
 */
export function withMessageContext<T>(
  headers: MsgHdrs | undefined,
  name: string,
  fn: () => Promise<T>,
  options: { kind?: SpanKind; attributes?: Attributes } = {},
): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, headers, natsGetter);
  return inSpan(name, fn, { kind: options.kind ?? SpanKind.CONSUMER, attributes: options.attributes }, parent);
}

/**
 * Runs `fn` in a new span under `parent` (by default the current context); the span records a
 * failure and ends when `fn` settles. `root` starts a new trace (work that arrives from outside).
 */
export function inSpan<T>(name: string, fn: () => Promise<T>, options: { kind?: SpanKind; attributes?: Attributes; root?: boolean; links?: Link[] } = {}, parent: Context = context.active()): Promise<T> {
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, root: options.root, links: options.links }, parent, async (span) => {
    try {
      return await fn();
    } catch (error) {
      throw failed(span, error);
    } finally {
      span.end();
    }
  });
}

/** Marks the span failed with the error, and hands the error back to be thrown on. */
function failed(span: Span, error: unknown): unknown {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
  return error;
}

/** `inSpan` for synchronous work (a core-NATS publish): the span has ended when it returns. */
export function inSpanNow<T>(name: string, fn: () => T, options: { kind?: SpanKind; attributes?: Attributes } = {}): T {
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, (span) => {
    try {
      return fn();
    } catch (error) {
      throw failed(span, error);
    } finally {
      span.end();
    }
  });
}

/** Runs `fn` outside any trace: background loops must not join whichever request woke them. */
export function outsideTrace<T>(fn: () => T): T {
  return context.with(ROOT_CONTEXT, fn);
}

export { SpanKind };
