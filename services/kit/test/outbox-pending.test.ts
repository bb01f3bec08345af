import { randomUUID } from 'node:crypto';
import { SUBJECTS } from '@crewswap/proto';
import { askOutboxPending, startRuntime, type Runtime } from '../src';
import { createTestDatabase, testBaseConfig, testTrip } from '@crewswap/kit-testing';

jest.setTimeout(60_000);

describe("a service's answer to what its outbox still holds unpublished", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let trips: Runtime;

  beforeAll(async () => {
    database = await createTestDatabase();
    trips = await startRuntime({ name: 'trips', schema: 'trips_test', migrations: {}, config: testBaseConfig(database.url) });
  });
  afterAll(async () => {
    await trips.close();
    await database.drop();
  });

  it('counts the events on the asked subjects that wait unpublished, and none on other subjects', async () => {
    expect(await askOutboxPending(trips.bus, 'trips', [SUBJECTS.tripCreated, SUBJECTS.tripUpdated])).toBe(0);
    // The relay stopped (NATS away, the process busy): the committed event waits in the outbox.
    await trips.relay.stop();
    const trip = testTrip({ pilotId: randomUUID() });
    await trips.db.transaction((trx) => trips.outbox.write(trx, SUBJECTS.tripCreated, { trip }));
    expect(await askOutboxPending(trips.bus, 'trips', [SUBJECTS.tripCreated, SUBJECTS.tripUpdated])).toBe(1);
    expect(await askOutboxPending(trips.bus, 'trips', [SUBJECTS.pilotRegistered])).toBe(0);
  });

  it('says nothing (undefined) for a service nobody runs: nobody can tell what it holds', async () => {
    expect(await askOutboxPending(trips.bus, 'nobody', [SUBJECTS.tripCreated], 200)).toBeUndefined();
  });
});
