/**
 * A bell update is one trace from the request that changed the bell to the pilot's open app:
 * notifications publishes 'bell-updated' on the pilot's core-NATS subject in the request's trace,
 * and realtime hands it to the pilot's stream in a span that continues it (issue 52).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { deleteStreams, PILOT_COOKIE, signPilotToken, startTracing, stopTracing } from '@crewswap/kit';
import { createTestDatabase, eventually, openStream, startService, testBaseConfig, TEST_KEYS, type StartedService } from '@crewswap/kit-testing';
import { DIRECT } from '@crewswap/proto';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

jest.setTimeout(30_000);

const GATEWAY_TRACE = '5c1e0b7a9d3f4e2b8a6c4d2e0f1a3b5c';

describe('a bell update is followed by one trace, from notifications through realtime to the open app', () => {
  const spans = new InMemorySpanExporter();
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let notifications: StartedService<'notifications'>;
  let realtime: StartedService<'realtime'>;
  let streamUrl: string;

  beforeAll(async () => {
    startTracing({ serviceName: 'crewswap-test', spanProcessors: [new SimpleSpanProcessor(spans)] });
    database = await createTestDatabase();
    const base = testBaseConfig(database.url);
    notifications = await startService('notifications', base);
    realtime = await startService('realtime', base, { options: { keys: TEST_KEYS } });
    await realtime.app.listen({ port: 0, host: '127.0.0.1' });
    streamUrl = `http://127.0.0.1:${(realtime.app.server.address() as AddressInfo).port}/api/sse/events`;
  });
  afterAll(async () => {
    if (notifications) await deleteStreams(notifications.runtime.bus);
    await realtime?.close();
    await notifications?.close();
    await database?.drop();
    await stopTracing();
  });

  const named = (name: string) => spans.getFinishedSpans().filter((span) => span.name === name);

  it("marking an alert read reaches the pilot's open app as 'bell-updated', in the trace of the request that marked it", async () => {
    const pilotId = randomUUID();
    const cookie = `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId })}`;
    // An alert in the pilot's bell, as push-sender writes it.
    const now = new Date();
    await notifications.runtime.db('notification_log').insert({
      id: randomUUID(),
      command_id: randomUUID(),
      pilot_id: pilotId,
      kind: 'swap_offer',
      dedupe_key: 'trace-test',
      title: 'A swap for you',
      body: 'VS001 on 2026-12-03 is offered',
      url: '/swaps',
      status: 'sent',
      reason: 'offer',
      created_at: now,
      updated_at: now,
    });
    const stream = await openStream(streamUrl, cookie);
    await stream.next('connected');

    const response = await notifications.app.inject({
      method: 'POST',
      url: '/api/notifications/bell/read',
      headers: { cookie, traceparent: `00-${GATEWAY_TRACE}-00f067aa0ba902b7-01` },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ unread: 0 });
    expect(await stream.next('bell-updated')).toMatchObject({ type: 'bell-updated', message: 'bell-updated' });
    stream.close();

    const channel = DIRECT.realtimePilot('*').name;
    const published = await eventually(() => named(`publish ${channel}`).find((span) => span.spanContext().traceId === GATEWAY_TRACE));
    const received = await eventually(() => named(`receive ${channel}`).find((span) => span.spanContext().traceId === GATEWAY_TRACE));
    // realtime's span continues notifications' publish, which is inside the request's span.
    expect(received.parentSpanContext?.spanId).toBe(published.spanContext().spanId);
    const request = spans.getFinishedSpans().find((span) => span.spanContext().spanId === published.parentSpanContext?.spanId);
    expect(request?.spanContext().traceId).toBe(GATEWAY_TRACE);
  });
});
