/**
 * Issue 54, "an SRE can restore last night's data", as a developer rehearses it: the runbook's
 * `make backup` dumps every service's schema from a database real services wrote, its `make
 * restore` puts the dump into a fresh database, and trips and swaps started on that database
 * answer pilots with what was there before.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { deleteStreams, PILOT_COOKIE, signPilotToken } from '@crewswap/kit';
import { createTestDatabase, eventually, startService, testBaseConfig, TEST_KEYS, testPilot, testTrip, uniqueName } from '@crewswap/kit-testing';
import { addDays, SUBJECTS, type Trip } from '@crewswap/proto';
import { removeScratch, scratch } from './helm';
import { read, ROOT } from './repo';

jest.setTimeout(120_000);
afterAll(removeScratch);

/** The runbook's local backup and restore commands, as written under "Back up and restore the database". */
function runbookCommands(): { backup: string; restore: string; replace: string } {
  const section = read('deploy/README.md').split('## Back up and restore the database')[1]!.split('\n## ')[0]!;
  const lines = [...section.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split('\n')).map((line) => line.replace(/\s+#.*$/, '').trim());
  const find = (pattern: RegExp) => {
    const found = lines.filter((line) => pattern.test(line));
    expect([pattern.source, found.length]).toEqual([pattern.source, 1]);
    return found[0]!;
  };
  return { backup: find(/^make backup$/), restore: find(/^make restore FILE="\$file"$/), replace: find(/^make restore FILE="\$file" CONFIRM=\S+$/) };
}

/** Runs one runbook line in bash at the repository's root, against `databaseUrl`. */
function run(line: string, databaseUrl: string, env: Record<string, string> = {}) {
  // As from a person's shell: under `make test` the parent make's variables would make this make
  // print 'Entering/Leaving directory' lines around the file name it prints.
  const { MAKEFLAGS: _flags, MAKELEVEL: _level, MFLAGS: _mflags, ...shell } = process.env;
  const result = spawnSync('bash', ['-c', line], { cwd: ROOT, encoding: 'utf8', env: { ...shell, DATABASE_URL: databaseUrl, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const databaseName = (url: string) => new URL(url).pathname.slice(1);
const cookies = (pilotId: string) => ({ [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId }) });

/** trips and swaps on one database, with a pilot's trips (added through trips' API) and other pilots' offers in swaps' read model. */
async function startTripsAndSwaps(databaseUrl: string) {
  const base = { ...testBaseConfig(databaseUrl, uniqueName('backup')), PORT: 0 };
  const trips = await startService('trips', base);
  const swaps = await startService('swaps', base);
  return {
    trips,
    swaps,
    async listTrips(pilotId: string) {
      const response = await trips.app.inject({ method: 'GET', url: '/api/trips', cookies: cookies(pilotId) });
      expect(response.statusCode).toBe(200);
      return (response.json() as Trip[]).map(({ id, startDate, endDate, route }) => ({ id, startDate, endDate, route }));
    },
    async findSwaps(pilotId: string, tripId: string) {
      const response = await swaps.app.inject({ method: 'GET', url: `/api/trips/${tripId}/matches`, cookies: cookies(pilotId) });
      expect(response.statusCode).toBe(200);
      return (response.json() as { trip: { id: string } }[]).map((match) => match.trip.id).sort();
    },
    async stop() {
      await deleteStreams(trips.runtime.bus).catch(() => undefined);
      await deleteStreams(swaps.runtime.bus).catch(() => undefined);
      await swaps.close();
      await trips.close();
    },
  };
}

test("make backup, then make restore into a fresh database: trips and swaps read every pilot's trips and offers from it", async () => {
  const commands = runbookCommands();
  const source = await createTestDatabase();
  const restored = await createTestDatabase();
  const backups = scratch('backups');
  let stack: Awaited<ReturnType<typeof startTripsAndSwaps>> | undefined;
  try {
    // Data written as pilots write it: a registered pilot adds a trip through trips' API; other
    // pilots' offers reach swaps' read model through its own repository.
    stack = await startTripsAndSwaps(source.url);
    const { trips, swaps } = stack;
    const pilot = testPilot();
    await trips.runtime.db.transaction((trx) => trips.runtime.outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
    await eventually(async () => (await trips.repositories.pilots.find(pilot.id)) !== undefined, 10_000);
    const start = addDays(new Date().toISOString().slice(0, 10), 30);
    const added = await trips.app.inject({
      method: 'POST',
      url: '/api/trips',
      cookies: cookies(pilot.id),
      payload: { flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK', startDate: start, endDate: addDays(start, 2) },
    });
    expect(added.statusCode).toBe(201);
    const trip = added.json() as Trip;
    const offerers = [testPilot(), testPilot()];
    const offers = offerers.map((offerer) => testTrip({ pilotId: offerer.id, startDate: addDays(start, 1), endDate: addDays(start, 3), isSwappable: true }));
    const stamp = { version: 1, at: new Date() };
    await swaps.readModel.applyPilotChanges(swaps.runtime.db, [pilot, ...offerers].map((one) => ({ kind: 'profile' as const, pilot: one, stamp })));
    await swaps.readModel.applyTripChanges(swaps.runtime.db, [trip, ...offers].map((one) => ({ kind: 'trip' as const, trip: one, stamp })));
    await swaps.offers.catchUp();
    const tripsBefore = await stack.listTrips(pilot.id);
    const swapsBefore = await stack.findSwaps(pilot.id, trip.id);
    expect(tripsBefore.map(({ id }) => id)).toEqual([trip.id]);
    expect(swapsBefore).toEqual(offers.map(({ id }) => id).sort());
    await stack.stop();
    stack = undefined;

    const backup = run(commands.backup, source.url, { BACKUP_DIR: backups });
    expect([backup.status, backup.stderr]).toEqual([0, expect.stringContaining('backup: schemas')]);
    const file = backup.stdout.trim().split('\n').at(-1)!;
    expect(file).toMatch(new RegExp(`^${backups}/crewswap-\\d{8}T\\d{6}Z\\.dump$`));
    // Every schema a service migrated is in it (each holds its knex_migrations).
    expect(backup.stderr).toMatch(/schemas .*\bswaps\b.*\btrips\b/);

    const restore = run(commands.restore, restored.url, { file });
    expect([restore.status, restore.stderr]).toEqual([0, expect.stringContaining(`-> database ${databaseName(restored.url)}`)]);
    // Again over what is now there: refused without the database's name, replaced with it.
    const guarded = run(commands.restore, restored.url, { file });
    expect(guarded.status).not.toBe(0);
    expect(guarded.stderr).toContain(`CONFIRM=${databaseName(restored.url)}`);
    const replace = run(commands.replace.replace(/CONFIRM=\S+$/, `CONFIRM=${databaseName(restored.url)}`), restored.url, { file });
    expect(replace.status).toBe(0);

    stack = await startTripsAndSwaps(restored.url);
    expect(await stack.listTrips(pilot.id)).toEqual(tripsBefore);
    expect(await stack.findSwaps(pilot.id, trip.id)).toEqual(swapsBefore);
  } finally {
    await stack?.stop();
    await source.drop();
    await restored.drop();
  }
});

test('make restore without a file stops and says what it needs', () => {
  const missing = run('make restore', 'postgres://postgres@127.0.0.1:5432/never_made');
  expect(missing.status).not.toBe(0);
  expect(missing.stderr).toContain('restore: FILE=<a dump from make backup>');
});
