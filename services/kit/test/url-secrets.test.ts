import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance } from 'fastify';
import { createLogger, createServiceApp, startTracing, stopTracing, urlWithoutSecrets } from '../src';
import { logLines } from '@crewswap/kit-testing';

const FEED_TOKEN = 'Zx9_Kq2-Lm4Np6Rt8Vw0Yb';
const LINK_TOKEN = 'eyJwaWxvdCI6IjEyMyJ9.c2lnbmF0dXJl';

describe('urls in logs and traces', () => {
  it("mask a calendar feed's private address and a signed link's token, and leave every other url as it is", () => {
    expect(urlWithoutSecrets(`/api/calendar/${FEED_TOKEN}.ics`)).toBe('/api/calendar/[redacted].ics');
    expect(urlWithoutSecrets(`/api/calendar/${FEED_TOKEN}.ics?refresh=1`)).toBe('/api/calendar/[redacted].ics?refresh=1');
    expect(urlWithoutSecrets(`/api/notifications/digest/unsubscribe?token=${LINK_TOKEN}`)).toBe('/api/notifications/digest/unsubscribe?token=[redacted]');
    expect(urlWithoutSecrets(`/api/notifications/digest/unsubscribe?a=1&token=${LINK_TOKEN}&b=2`)).toBe('/api/notifications/digest/unsubscribe?a=1&token=[redacted]&b=2');
    for (const url of ['/api/calendar/feed', '/api/trips?startDate=2026-12-01', '/api/trips/abc/matches', '/']) expect(urlWithoutSecrets(url)).toBe(url);
  });
});

describe("a request whose url carries a key leaves no key in the gateway's or a service's access line or span", () => {
  const spans = new InMemorySpanExporter();
  const { output, lines } = logLines();
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    startTracing({ serviceName: 'crewswap-test', spanProcessors: [new SimpleSpanProcessor(spans)], clientSpans: false });
    // The edge (as the gateway) and a service: the two ways the kit traces a request.
    for (const edge of [true, false]) {
      const app = createServiceApp({ name: edge ? 'gateway' : 'trips', logger: createLogger('test', { LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, output), readiness: {}, trustRequestContext: !edge });
      app.get('/api/calendar/:token.ics', async () => 'BEGIN:VCALENDAR');
      app.get('/api/notifications/digest/unsubscribe', async () => 'unsubscribe page');
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await stopTracing();
  });

  it.each([
    ['a calendar feed', `/api/calendar/${FEED_TOKEN}.ics`, FEED_TOKEN, '/api/calendar/[redacted].ics'],
    ["the digest's unsubscribe link", `/api/notifications/digest/unsubscribe?token=${LINK_TOKEN}`, LINK_TOKEN, '/api/notifications/digest/unsubscribe?token=[redacted]'],
  ])('%s', async (_kind, url, secret, logged) => {
    for (const app of apps) expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const accessLines = lines.filter((line) => line.msg === 'request' && line.url === logged);
    expect(accessLines).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain(secret);
    const requestSpans = spans.getFinishedSpans().filter((span) => span.attributes['url.path'] !== undefined && String(span.attributes['url.path']).startsWith(logged.split(/[?[]/)[0]!));
    expect(requestSpans.length).toBeGreaterThanOrEqual(2);
    for (const span of spans.getFinishedSpans()) expect(JSON.stringify(span.attributes)).not.toContain(secret);
  });
});
