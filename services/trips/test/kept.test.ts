import { fixedClock } from '@crewswap/kit';
import { keptByKey } from '../src/domain/crew/kept';

/** A build the test finishes when it likes. */
function builds() {
  const started: { resolve: (value: string) => void; reject: (error: Error) => void }[] = [];
  const build = () =>
    new Promise<string>((resolve, reject) => {
      started.push({ resolve, reject });
    });
  return { started, build };
}

describe('calendars kept 15 s: built once, renewed in the background', () => {
  it('shares one build between callers, renews it past half its life while answering the kept copy, and waits only once it is past its life', async () => {
    const clock = fixedClock('2026-11-15T12:00:00Z');
    const kept = keptByKey<string>({ clock, keepMs: 15_000 });
    const { started, build } = builds();

    const first = kept('CP|A350', build);
    const second = kept('CP|A350', build);
    expect(started).toHaveLength(1);
    started[0]!.resolve('v1');
    expect(await first).toBe('v1');
    expect(await second).toBe('v1');

    clock.advance(8_000);
    expect(await kept('CP|A350', build)).toBe('v1');
    expect(started).toHaveLength(2);
    // Still building: readers keep the kept copy and start no other build.
    expect(await kept('CP|A350', build)).toBe('v1');
    expect(started).toHaveLength(2);
    started[1]!.resolve('v2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await kept('CP|A350', build)).toBe('v2');

    clock.advance(15_000);
    const late = kept('CP|A350', build);
    expect(started).toHaveLength(3);
    started[2]!.resolve('v3');
    expect(await late).toBe('v3');
  });

  it('forgets a failed build, and builds for every call when nothing is kept', async () => {
    const clock = fixedClock('2026-11-15T12:00:00Z');
    const kept = keptByKey<string>({ clock, keepMs: 15_000 });
    const { started, build } = builds();
    const failing = kept('FO|B787', build);
    started[0]!.reject(new Error('database away'));
    await expect(failing).rejects.toThrow('database away');
    const retried = kept('FO|B787', build);
    expect(started).toHaveLength(2);
    started[1]!.resolve('v1');
    expect(await retried).toBe('v1');

    const never = keptByKey<string>({ clock, keepMs: 0 });
    void never('x', build);
    void never('x', build);
    expect(started).toHaveLength(4);
  });

  it('keeps answering the kept copy when a renewal fails, and tries again on the next read', async () => {
    const clock = fixedClock('2026-11-15T12:00:00Z');
    const kept = keptByKey<string>({ clock, keepMs: 15_000 });
    const { started, build } = builds();
    const first = kept('CP|B787', build);
    started[0]!.resolve('v1');
    await first;

    clock.advance(8_000);
    expect(await kept('CP|B787', build)).toBe('v1');
    started[1]!.reject(new Error('database away'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await kept('CP|B787', build)).toBe('v1');
    expect(started).toHaveLength(3);
    started[2]!.resolve('v2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await kept('CP|B787', build)).toBe('v2');
  });
});
