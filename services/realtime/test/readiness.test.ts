/**
 * Realtime reports a NATS outage as every other service does: degraded, still ready, so the pods
 * stay in service (every replica is in the same state, and streams resume when NATS is back).
 */
import { eventually, startThrowawayNats, TEST_KEYS, testBaseConfig } from '@crewswap/kit-testing';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';

jest.setTimeout(60_000);

describe('realtime readiness', () => {
  it('stays ready, reported degraded, while NATS is away, and is ready again once it is back', async () => {
    const nats = await startThrowawayNats();
    const config = { ...configSchema.parse({}), ...testBaseConfig('postgres://unused@127.0.0.1/none'), NATS_URL: nats.url };
    const service = await createApp(config, { keys: TEST_KEYS });
    try {
      expect((await service.app.inject('/readyz')).json()).toEqual({ status: 'ready', checks: { nats: true, revocations: true, sessions: true } });
      await nats.stop();
      const degraded = await eventually(async () => {
        const response = await service.app.inject('/readyz');
        // The connection's state and the revocation follower's each notice the loss on their own.
        const { checks } = response.json();
        return checks.nats === false && checks.revocations === false ? response : undefined;
      }, 10_000);
      expect(degraded.statusCode).toBe(200);
      expect(degraded.json()).toMatchObject({ status: 'degraded', checks: { nats: false, revocations: false } });
      await nats.start();
      await eventually(async () => (await service.app.inject('/readyz')).json().status === 'ready', 30_000);
    } finally {
      await service.close();
      await nats.stop().catch(() => undefined);
    }
  });
});
