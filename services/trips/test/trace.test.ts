import { startTracing, stopTracing } from '@crewswap/kit';
import { eventually } from '@crewswap/kit-testing';
import { SUBJECTS } from '@crewswap/proto';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

const GATEWAY_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('a trip added through the gateway is published in the gateway’s trace', () => {
  const spans = new InMemorySpanExporter();
  let service: TestService;
  beforeAll(async () => {
    startTracing({ serviceName: 'crewswap-test', spanProcessors: [new SimpleSpanProcessor(spans)] });
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
    await stopTracing();
  });

  it('the trip.created event (written in the same statement as the trip) keeps the request’s trace and is published in it', async () => {
    const pilot = await registerPilot(service, makePilot());
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/trips',
      cookies: pilotCookie(pilot.id),
      headers: { traceparent: `00-${GATEWAY_TRACE}-00f067aa0ba902b7-01` },
      payload: tripBody(),
    });
    expect(response.statusCode).toBe(201);
    const [row] = (await service.runtime.db('outbox').where({ subject: SUBJECTS.tripCreated })) as { trace_context: { traceparent: string } | null }[];
    expect(row!.trace_context?.traceparent).toMatch(new RegExp(`^00-${GATEWAY_TRACE}-[0-9a-f]{16}-01$`));
    await eventually(() => spans.getFinishedSpans().some((span) => span.name === `publish ${SUBJECTS.tripCreated}` && span.spanContext().traceId === GATEWAY_TRACE));
  });
});
