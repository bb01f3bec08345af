import { createLogger, startTracing, stopTracing } from '@crewswap/kit';
import { eventually, logLines, startService, testBaseConfig, TEST_KEYS, type StartedService } from '@crewswap/kit-testing';
import { RPC, SUBJECTS } from '@crewswap/proto';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import nodemailer from 'nodemailer';
import { readFixture } from './fixtures';
import { registerPilot, startTestStack, UPLOAD_EMAIL, type TestStack } from './helpers';

const IMOGEN = 'imogen.thistlewood@example-airline.test';

describe('one emailed roster is one trace, from the SMTP receiver to realtime', () => {
  // A real SDK (the kit's own set-up) recording into memory, as OTLP would send to Tempo.
  const spans = new InMemorySpanExporter();
  const { output, lines } = logLines();
  const logger = (name: string) => createLogger(name, { LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, output);
  let stack: TestStack;
  // realtime runs in this process too: its delivery is the last hop of the trace.
  let realtime: StartedService<'realtime'>;

  beforeAll(async () => {
    startTracing({ serviceName: 'crewswap-test', spanProcessors: [new SimpleSpanProcessor(spans)] });
    stack = await startTestStack({ log: logger('roster-ingest'), tripsLog: logger('trips') });
    realtime = await startService('realtime', testBaseConfig(stack.config.DATABASE_URL, stack.config.NATS_PREFIX), { options: { keys: TEST_KEYS, log: logger('realtime') } });
  });
  afterAll(async () => {
    await realtime?.close();
    await stack?.stop();
    await stopTracing();
  });

  const named = (name: string) => spans.getFinishedSpans().filter((span) => span.name === name);
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('the receiver, the worker, the trips RPC, the outbox, a consumer and realtime share one trace, and the log lines name it', async () => {
    const pilot = await registerPilot(stack, { email: IMOGEN, base: 'LHR', fleet: 'A350' });
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: IMOGEN, to: [UPLOAD_EMAIL] }, raw: readFixture('roster-a.eml') });

    const hops = [
      'smtp receive',
      `publish ${SUBJECTS.rosterMailReceived}`,
      `consume ${SUBJECTS.rosterMailReceived}`,
      `rpc ${RPC.importTrips}`,
      `serve ${RPC.importTrips}`,
      `publish ${SUBJECTS.tripCreated}`,
      `follow ${SUBJECTS.tripCreated}`, // realtime's feed
      `publish ${SUBJECTS.rosterProcessed}`,
      `follow ${SUBJECTS.rosterProcessed}`,
    ];
    await eventually(() => hops.every((name) => named(name).length > 0), 30_000);
    expect(await stack.trips.repositories.trips.listByPilot(pilot.id)).toHaveLength(9);

    // One mail, one trace: every span of every hop is in it.
    const [root] = named('smtp receive');
    const traceId = root!.spanContext().traceId;
    for (const name of hops) {
      expect({ name, traces: [...new Set(named(name).map((span) => span.spanContext().traceId))] }).toEqual({ name, traces: [traceId] });
    }
    // ...and it is one tree: each span's parent is in the trace, up to the receiver's root.
    const trace = spans.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    const ids = new Set(trace.map((span) => span.spanContext().spanId));
    expect(parentOf(root!)).toBeUndefined();
    expect(trace.filter((span) => span !== root && !ids.has(parentOf(span) ?? ''))).toEqual([]);
    // 9 trips imported: 9 events, each published and delivered in this trace.
    expect(named(`publish ${SUBJECTS.tripCreated}`)).toHaveLength(9);

    // The receiver's and the worker's lines about this mail name the trace.
    const mailLines = lines.filter((line) => line.msg === 'roster mail queued' || line.msg === 'roster mail processed');
    expect(mailLines.map((line) => [line.msg, line.traceId])).toEqual([
      ['roster mail queued', traceId],
      ['roster mail processed', traceId],
    ]);
  });
});
