import { fixedClock } from '@crewswap/kit';
import { addDays } from '@crewswap/proto';
import { createApp, type SwapsService } from '../src/app';
import { startHarness, TODAY, type Harness } from './helpers';

/**
 * Two swaps processes on one database and one NATS, as the chart and `make up REPLICAS=2` run
 * them: the read model's consumers are shared (each event applied once, by either), and each
 * replica's offer index follows the one `offers` table. (The digest's once-only claim across
 * replicas is digest.test's.)
 */
describe('two swaps replicas', () => {
  let h: Harness;
  let second: SwapsService;
  beforeAll(async () => {
    h = await startHarness();
    second = await createApp(h.config, { clock: fixedClock(`${TODAY}T12:00:00Z`) });
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
  });

  async function foundOn(replica: SwapsService, pilot: { id: string }, tripId: string): Promise<string[]> {
    const response = await replica.app.inject({ method: 'GET', url: `/api/trips/${tripId}/matches`, cookies: h.cookies(pilot) });
    expect(response.statusCode).toBe(200);
    return (response.json() as { trip: { id: string } }[]).map((match) => match.trip.id).sort();
  }

  it("finds a pilot's offer on either replica once it is applied, whichever replica applied it", async () => {
    const me = await h.register({ fleet: 'A350' });
    const mine = await h.addTrip(me, { startDate: addDays(TODAY, 40) });
    const them = await h.register({ fleet: 'A350' });
    const offers: string[] = [];
    // Several offers: the replicas share the durable consumer, so either may apply each one.
    for (let i = 0; i < 6; i += 1) {
      offers.push((await h.addTrip(them, { startDate: addDays(TODAY, 40 + (i % 3)), isSwappable: true })).id);
      await second.offers.catchUp();
      expect(await foundOn(h.service, me, mine.id)).toEqual([...offers].sort());
      expect(await foundOn(second, me, mine.id)).toEqual([...offers].sort());
    }
    expect(second.offers.status()).toEqual(h.service.offers.status());
  });
});
