import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildService } from '../../../scripts/build-services';
import { readFixture } from './fixtures';

/** The production image runs dist/main.mjs, whose parse pool starts dist/parse-worker.mjs beside it. */
describe('the parse worker in the built service', () => {
  it('is built beside main.mjs and reads a roster on its own, without tsx', async () => {
    const files = await buildService('roster-ingest');
    expect(files).toEqual(expect.arrayContaining(['services/roster-ingest/dist/main.mjs', 'services/roster-ingest/dist/parse-worker.mjs']));
    const worker = new Worker(join(__dirname, '..', 'dist', 'parse-worker.mjs'));
    try {
      const reply = await new Promise<{ ok: boolean; roster?: { trips: unknown[] } }>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (message: { ready?: true; ok: boolean; roster?: { trips: unknown[] } }) => {
          if (message.ready) worker.postMessage({ id: 1, text: readFixture('roster-a-lhr-a350-cp.ics').toString('utf8'), base: 'LHR' });
          else resolve(message);
        });
      });
      expect(reply.ok).toBe(true);
      expect(reply.roster!.trips).toHaveLength(9);
    } finally {
      await worker.terminate();
    }
  });
});
