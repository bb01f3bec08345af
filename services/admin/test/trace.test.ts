/**
 * A settings change is one trace from the admin's request to the settings client of another
 * service: admin writes `admin.settings.changed` to its outbox in the request's trace, the relay
 * publishes it in that trace, and auth's settings client hears it in a span that continues it
 * (issue 52).
 */
import { ADMIN_COOKIE, startTracing, stopTracing } from '@crewswap/kit';
import { createTestDatabase, eventually, startService, testBaseConfig, type StartedService } from '@crewswap/kit-testing';
import { SUBJECTS } from '@crewswap/proto';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { login, MASTER, startAdmin, stopAdmin, type TestDatabase } from './helpers';

jest.setTimeout(30_000);

const GATEWAY_TRACE = '7d2f4b6a8c0e4a1b9c3d5e7f9a1b3c5d';

describe('a settings change is followed by one trace, from admin to the settings client in another service', () => {
  const spans = new InMemorySpanExporter();
  let database: TestDatabase;
  let admin: Awaited<ReturnType<typeof startAdmin>>;
  let auth: StartedService<'auth'>;

  beforeAll(async () => {
    startTracing({ serviceName: 'crewswap-test', spanProcessors: [new SimpleSpanProcessor(spans)] });
    database = await createTestDatabase();
    admin = await startAdmin(database, { env: { TESTING_BUTTON_ENABLED: 'false' } });
    // auth keeps admin's settings a minute (SETTINGS_CACHE_MS): only the change event can tell it sooner.
    auth = await startService('auth', testBaseConfig(database.url, admin.prefix));
  });
  afterAll(async () => {
    await auth?.close();
    if (admin) await stopAdmin(admin);
    await database?.drop();
    await stopTracing();
  });

  const named = (name: string) => spans.getFinishedSpans().filter((span) => span.name === name);
  const testPilotList = () => auth.app.inject({ method: 'GET', url: '/api/pilots/all' });

  it("turning the testing button on reaches auth's settings client at once, in the trace of the admin's request", async () => {
    // Outside testing mode the test pilot list does not exist; auth now holds that in its cache.
    expect((await testPilotList()).statusCode).toBe(404);

    const master = await login(admin, MASTER.email, MASTER.password);
    const response = await admin.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/testing_button_enabled',
      payload: { value: 'true' },
      cookies: { [ADMIN_COOKIE]: master },
      headers: { traceparent: `00-${GATEWAY_TRACE}-00f067aa0ba902b7-01` },
    });
    expect(response.statusCode).toBe(200);
    await eventually(async () => (await testPilotList()).statusCode === 200, 2000);

    const published = await eventually(() => named(`publish ${SUBJECTS.settingsChanged}`).find((span) => span.spanContext().traceId === GATEWAY_TRACE));
    const heard = await eventually(() => named(`receive ${SUBJECTS.settingsChanged}`).find((span) => span.spanContext().traceId === GATEWAY_TRACE));
    // The settings client's span continues the relay's publish, which continues the request.
    expect(heard.parentSpanContext?.spanId).toBe(published.spanContext().spanId);
    const trace = spans.getFinishedSpans().filter((span) => span.spanContext().traceId === GATEWAY_TRACE);
    const ids = new Set(trace.map((span) => span.spanContext().spanId));
    expect(trace.filter((span) => !ids.has(span.parentSpanContext?.spanId ?? '') && span.parentSpanContext?.spanId !== '00f067aa0ba902b7')).toEqual([]);
  });
});
