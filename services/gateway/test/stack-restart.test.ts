import { HEALTHY_RUN_MS, restartBackoff } from '../../../scripts/stack';

describe('the local runner restarting a service', () => {
  it('waits 500 ms longer after each crash in a row, at most 10 s', () => {
    let now = 0;
    const backoff = restartBackoff(() => now);
    const delays: number[] = [];
    for (let crash = 0; crash < 25; crash += 1) {
      backoff.started();
      now += 8_000;
      delays.push(backoff.nextDelay());
    }
    expect(delays.slice(0, 3)).toEqual([500, 1000, 1500]);
    expect(Math.max(...delays)).toBe(10_000);
  });

  it('starts the delay again after a healthy minute', () => {
    let now = 0;
    const backoff = restartBackoff(() => now);
    for (const ranFor of [8_000, 8_000, 8_000]) {
      backoff.started();
      now += ranFor;
      backoff.nextDelay();
    }
    backoff.started();
    now += HEALTHY_RUN_MS;
    expect(backoff.nextDelay()).toBe(500);
    backoff.started();
    now += 8_000;
    expect(backoff.nextDelay()).toBe(1000);
  });
});
