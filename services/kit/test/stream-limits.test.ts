/**
 * JetStream streams against the real local NATS (a single server): they are made with the
 * replicas and limits of the base config (NATS_STREAM_*), an existing stream takes new limits in
 * place and keeps its events, and asking a single server for more replicas than it can keep does
 * not stop a service from starting.
 */
import { STREAMS, type StreamName } from '@crewswap/proto';
import pino from 'pino';
import { baseConfigSchema } from '../src/config';
import { connectBus, deleteStreams, ensureStreams, streamLimits, type Bus } from '../src/events/nats';
import { uniqueName } from '@crewswap/kit-testing';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const NANOS_PER_SECOND = 1_000_000_000;
const names = Object.keys(STREAMS) as StreamName[];

describe('JetStream stream limits', () => {
  const buses: Bus[] = [];
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });

  async function bus(): Promise<Bus> {
    const connected = await connectBus({ url: NATS_URL, prefix: uniqueName('limits'), name: 'test', log });
    buses.push(connected);
    return connected;
  }
  afterAll(async () => {
    for (const connected of buses) {
      await deleteStreams(connected);
      await connected.close();
    }
  });

  it('reads NATS_STREAM_REPLICAS, NATS_STREAM_MAX_AGE_SECONDS and NATS_STREAM_MAX_BYTES: one replica, 30 days and no byte limit unless set', () => {
    expect(streamLimits(baseConfigSchema.parse({}))).toEqual({ replicas: 1, maxAgeSeconds: 30 * 24 * 3600, maxBytes: 0 });
    expect(streamLimits(baseConfigSchema.parse({ NATS_STREAM_REPLICAS: '3', NATS_STREAM_MAX_AGE_SECONDS: '86400', NATS_STREAM_MAX_BYTES: '5000000' }))).toEqual({
      replicas: 3,
      maxAgeSeconds: 86400,
      maxBytes: 5_000_000,
    });
    expect(baseConfigSchema.safeParse({ NATS_STREAM_REPLICAS: '0' }).success).toBe(false);
  });

  it('makes every stream with the configured replicas and limits', async () => {
    const connected = await bus();
    await ensureStreams(connected, streamLimits(baseConfigSchema.parse({ NATS_STREAM_MAX_BYTES: String(64 * 1024 * 1024) })), log);
    for (const name of names) {
      const { config } = await connected.jsm.streams.info(connected.stream(name));
      expect([name, config.num_replicas, config.max_age, config.max_bytes, config.discard]).toEqual([name, 1, 30 * 24 * 3600 * NANOS_PER_SECOND, 64 * 1024 * 1024, 'old']);
    }
  });

  it('updates an existing stream whose limits differ, keeping its events', async () => {
    const connected = await bus();
    await ensureStreams(connected, { replicas: 1, maxAgeSeconds: 0, maxBytes: 0 }, log);
    const auth = connected.stream('AUTH');
    expect((await connected.jsm.streams.info(auth)).config).toMatchObject({ max_age: 0, max_bytes: -1 });
    await connected.js.publish(connected.subject('auth.pilot.updated'), JSON.stringify({ kept: true }));

    await ensureStreams(connected, { replicas: 1, maxAgeSeconds: 7 * 24 * 3600, maxBytes: 50 * 1024 * 1024 }, log);
    const info = await connected.jsm.streams.info(auth);
    expect(info.config).toMatchObject({ max_age: 7 * 24 * 3600 * NANOS_PER_SECOND, max_bytes: 50 * 1024 * 1024, num_replicas: 1 });
    expect(info.state.messages).toBe(1);
  });

  it('says what to do when NATS has not the storage a byte limit reserves', async () => {
    const connected = await bus();
    await expect(ensureStreams(connected, { replicas: 1, maxAgeSeconds: 3600, maxBytes: 2 ** 50 }, log)).rejects.toThrow(
      /NATS cannot reserve 1125899906842624 bytes for stream .*NATS_STREAM_MAX_BYTES.*give JetStream more storage or lower the limit/,
    );
  });

  it('starts on a single server asked for three replicas, keeping one and saying so', async () => {
    const connected = await bus();
    warnings.length = 0;
    await ensureStreams(connected, { replicas: 3, maxAgeSeconds: 3600, maxBytes: 1024 * 1024 }, log);
    for (const name of names) {
      const { config } = await connected.jsm.streams.info(connected.stream(name));
      expect([name, config.num_replicas, config.max_age]).toEqual([name, 1, 3600 * NANOS_PER_SECOND]);
    }
    expect(warnings.join('')).toMatch(/cannot keep this many replicas/);
  });
});
