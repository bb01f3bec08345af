/**
 * Heartbeats are spread over the interval: each tick serves one slice of the streams, so a
 * process holding thousands never writes to all of them at once, and every stream still gets
 * one heartbeat per round of ticks.
 */
import { randomUUID } from 'node:crypto';
import { createHub } from '../src/domain/hub';

function recordingSink() {
  const frames: string[] = [];
  return {
    frames,
    sink: {
      write: (chunk: string) => frames.push(chunk) > 0,
      writableLength: 0,
      end: () => undefined,
      onDrain: () => undefined,
    },
  };
}

const heartbeats = (frames: string[]) => frames.filter((frame) => frame.includes('"type":"heartbeat"')).length;

describe('heartbeats in slices', () => {
  it('reach one slice of the streams a tick, and every stream once a round', () => {
    const hub = createHub({ bufferLimitBytes: 16 * 1024, heartbeatSlices: 3 });
    const streams = Array.from({ length: 7 }, () => recordingSink());
    for (const { sink } of streams) hub.open({ pilotId: randomUUID(), sessionId: randomUUID() }, sink);

    hub.heartbeat(0);
    expect(streams.map(({ frames }) => heartbeats(frames))).toEqual([1, 0, 0, 1, 0, 0, 1]);
    hub.heartbeat(1);
    hub.heartbeat(2);
    expect(streams.map(({ frames }) => heartbeats(frames))).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('end a stream whose token expired at its own slice', () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const hub = createHub({ bufferLimitBytes: 16 * 1024, heartbeatSlices: 2, now: () => now });
    const first = recordingSink();
    const second = recordingSink();
    hub.open({ pilotId: randomUUID(), sessionId: randomUUID(), expiresAt: now + 1000 }, first.sink);
    hub.open({ pilotId: randomUUID(), sessionId: randomUUID(), expiresAt: now + 1000 }, second.sink);
    now += 2000;
    hub.heartbeat(1);
    expect(hub.size()).toBe(1);
    expect(JSON.parse(second.frames.at(-1)!.slice(6))).toMatchObject({ type: 'auth_failed', category: 'session_expired' });
    expect(first.frames.some((frame) => frame.includes('auth_failed'))).toBe(false);
    hub.heartbeat(0);
    expect(hub.size()).toBe(0);
  });
});
