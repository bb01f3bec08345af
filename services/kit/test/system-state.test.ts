import { SUBJECTS } from '@crewswap/proto';
import { deleteStreams, followSystemState, HttpError, startRuntime, type Runtime } from '../src';
import { createTestDatabase, eventually, testBaseConfig } from '@crewswap/kit-testing';

describe("following admin's emergency shutdown", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let runtime: Runtime;

  beforeAll(async () => {
    database = await createTestDatabase();
    runtime = await startRuntime({ name: 'kit-system', schema: 'kit_system', migrations: {}, config: testBaseConfig(database.url) });
  });
  afterAll(async () => {
    await deleteStreams(runtime.bus);
    await runtime.close();
    await database.drop();
  });

  const announce = (subject: typeof SUBJECTS.systemShutdown | typeof SUBJECTS.systemResumed) =>
    runtime.db.transaction((trx) => runtime.outbox.write(trx, subject, { reason: null }));
  const published = async () => eventually(async () => (await runtime.bus.jsm.streams.info(runtime.bus.stream('ADMIN'))).state.messages > 0);

  it('a replica started during a shutdown knows it at once; the resume is heard; assertRunning answers 503 only meanwhile', async () => {
    await announce(SUBJECTS.systemShutdown);
    await published();
    const system = await followSystemState({ bus: runtime.bus, log: runtime.log });
    try {
      await eventually(async () => system.isShutdown());
      expect(() => system.assertRunning()).toThrow(HttpError);
      await announce(SUBJECTS.systemResumed);
      await eventually(async () => !system.isShutdown());
      expect(() => system.assertRunning()).not.toThrow();
    } finally {
      await system.stop();
    }
  });

  it('a replica started after the resume is not shut down', async () => {
    const system = await followSystemState({ bus: runtime.bus, log: runtime.log });
    try {
      // Both subjects' last events are read at start; give them the time a delivery takes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(system.isShutdown()).toBe(false);
    } finally {
      await system.stop();
    }
  });
});
