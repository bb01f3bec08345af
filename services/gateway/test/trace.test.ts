import { createLogger, createServiceApp, startTracing, stopTracing, traceFields } from '@crewswap/kit';
import { logLines } from '@crewswap/kit-testing';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';

const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';

describe('the gateway starts the trace a request is followed by', () => {
  const spans = new InMemorySpanExporter();
  const { output, lines } = logLines();
  let service: FastifyInstance;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    // As the gateway runs (main.ts): no client spans, the proxy writes the context in itself.
    startTracing({ serviceName: 'crewswap-test', spanProcessors: [new SimpleSpanProcessor(spans)], clientSpans: false });
    // A service as the kit builds them, answering with the trace and request id it works in.
    service = createServiceApp({ name: 'trips', logger: createLogger('trips', { LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, output), readiness: {} });
    const answer = async (request: { id: string }) => ({ ...traceFields(), requestId: request.id });
    service.get('/api/trips', answer);
    service.get('/api/sse/events', answer);
    await service.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(service.server.address() as { port: number }).port}`;
    const config = configSchema.parse({ LOG_LEVEL: 'silent', TRIPS_URL: url, REALTIME_URL: url, WEB_DIST: 'no-web-app-here' });
    gateway = (await createApp(config)).app;
  });
  afterAll(async () => {
    await gateway.close();
    await service.close();
    await stopTracing();
  });

  it.each([
    ['a request', '/api/trips'],
    ['an event stream', '/api/sse/events'],
  ])("%s from a client continues the gateway's own trace, never the trace or request id the client names", async (_kind, url) => {
    const response = await gateway.inject({
      method: 'GET',
      url,
      headers: { traceparent: `00-${CLIENT_TRACE}-b7ad6b7169203331-01`, 'x-request-id': 'chosen-by-the-client' },
    });
    expect(response.statusCode).toBe(200);
    const seen = response.json() as { traceId: string; requestId: string };
    const gatewaySpan = spans.getFinishedSpans().find((span) => span.attributes['url.path'] === url && span.spanContext().traceId === seen.traceId && !span.parentSpanContext);
    expect(gatewaySpan).toBeDefined();
    expect(seen.traceId).not.toBe(CLIENT_TRACE);
    expect(seen.requestId).not.toBe('chosen-by-the-client');
    expect(response.headers['x-request-id']).toBe(seen.requestId);
    // The service's access line names the trace.
    expect(lines.find((line) => line.msg === 'request' && line.url === url)?.traceId).toBe(seen.traceId);
  });
});
