import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestRpc } from '@crewswap/kit';
import {
  ImportTripsReply,
  KnownAirportsReply,
  PurgePreviewReply,
  PurgeTripsReply,
  RPC,
  SUBJECTS,
  SeedDemoTripsReply,
  TripCountsReply,
  addDays,
  type Trip,
} from '@crewswap/proto';
import { eventually } from '@crewswap/kit-testing';
import { z } from 'zod';
import { makePilot, registerPilot, startTestService, TODAY, type TestService } from './helpers';

interface ExpectedTrip {
  flightNoStart: string;
  flightNoEnd: string;
  route: string;
  startDate: string;
  endDate: string;
  aircraft: 'A330' | 'A350' | 'B787' | null;
  icsDescriptionContains: string;
}
// The roster fixtures' oracle lives with roster-ingest, whose parser produces these records.
const expected = JSON.parse(readFileSync(join(__dirname, '../../roster-ingest/test/fixtures/rosters/expected.json'), 'utf8')) as {
  files: Record<string, { trips?: ExpectedTrip[] }>;
};
const asImport = (trip: ExpectedTrip) => ({
  flightNoStart: trip.flightNoStart,
  flightNoEnd: trip.flightNoEnd,
  route: trip.route,
  startDate: trip.startDate,
  endDate: trip.endDate,
  aircraft: trip.aircraft,
  icsDescription: trip.icsDescriptionContains,
});
const rosterA = expected.files['roster-a-lhr-a350-cp.ics']!.trips!.map(asImport);
const rosterB = expected.files['roster-b-man-a330-fo.ics']!.trips!.map(asImport);

describe('trips over request/reply: import, purge, counts, demo seed', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  const ask = <R extends z.ZodType>(subject: string, body: unknown, reply: R) => requestRpc(service.runtime.bus, subject, body, reply);
  const tripsOf = (pilotId: string) => service.repositories.trips.listByPilot(pilotId);

  it("imports roster A's 9 records; importing again gives 9 duplicates and 0 conflicts", async () => {
    const pilot = await registerPilot(service, makePilot({ fleet: 'A350' }));
    const first = await ask(RPC.importTrips, { pilotId: pilot.id, trips: rosterA }, ImportTripsReply);
    expect(first).toMatchObject({ processedCount: 9, duplicateCount: 0, conflicts: [], skipped: [] });
    const stored = await tripsOf(pilot.id);
    // Every stored trip is reported as added, by id.
    expect(first.changes.map((change) => [change.kind, change.tripId]).sort()).toEqual(stored.map((trip) => ['added', trip.id]).sort());
    expect(stored).toHaveLength(9);
    expect(stored.filter((trip) => trip.isStandby).map((trip) => [trip.route, trip.aircraft])).toEqual([
      ['SBY', null],
      ['HSBY', null],
      ['RSV', null],
    ]);
    expect(stored.find((trip) => trip.flightNoStart === 'VS135')).toMatchObject({ route: 'LAS-LAX', aircraft: 'A350', endDate: '2026-11-15' });

    const again = await ask(RPC.importTrips, { pilotId: pilot.id, trips: rosterA }, ImportTripsReply);
    expect(again).toEqual({ processedCount: 0, duplicateCount: 9, conflicts: [], skipped: [], changes: [] });
    expect(await tripsOf(pilot.id)).toHaveLength(9);
    const created = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripCreated });
    expect(created.filter((row: { envelope: { data: { trip: Trip } } }) => row.envelope.data.trip.pilotId === pilot.id)).toHaveLength(9);
  });

  it('records the trip source, and a repeated import id answers the first reply and stores nothing twice', async () => {
    const pilot = await registerPilot(service, makePilot({ fleet: 'A350' }));
    const importId = '7d7c6f1e-9a53-4b53-8f0e-2f4b8d1c0a01';
    const first = await ask(RPC.importTrips, { pilotId: pilot.id, trips: rosterA, source: 'email', importId }, ImportTripsReply);
    const again = await ask(RPC.importTrips, { pilotId: pilot.id, trips: rosterA, source: 'email', importId }, ImportTripsReply);
    expect(first.processedCount).toBe(9);
    expect(again).toEqual(first);
    const stored = await tripsOf(pilot.id);
    expect(stored).toHaveLength(9);
    expect(new Set(stored.map((trip) => trip.source))).toEqual(new Set(['email']));
  });

  it("a roster fetched from the pilot's roster address is a roster file: its trips are 'upload', its changes come by the roster address's channel", async () => {
    const pilot = await registerPilot(service, makePilot({ fleet: 'A350' }));
    await ask(RPC.importTrips, { pilotId: pilot.id, trips: rosterA, source: 'subscription' }, ImportTripsReply);
    const stored = await tripsOf(pilot.id);
    expect(new Set(stored.map((trip) => trip.source))).toEqual(new Set(['upload']));
    const created = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripCreated });
    const origins = created
      .map((row: { envelope: { data: { trip: Trip; origin?: { channel: string } } } }) => row.envelope.data)
      .filter((data: { trip: Trip }) => data.trip.pilotId === pilot.id)
      .map((data: { origin?: { channel: string } }) => data.origin?.channel);
    expect(origins).toEqual(stored.map(() => 'roster_subscription'));
  });

  it('an overlapping trip is a conflict and is not stored; duplicates inside one import are counted', async () => {
    const pilot = await registerPilot(service, makePilot({ fleet: 'A330', rank: 'FO' }));
    const overlapping = { flightNoStart: 'VS127', flightNoEnd: 'VS128', route: 'JFK', startDate: '2026-12-08', endDate: '2026-12-11', aircraft: 'A330', icsDescription: 'VS127' };
    const reply = await ask(RPC.importTrips, { pilotId: pilot.id, trips: [...rosterB, rosterB[0], overlapping] }, ImportTripsReply);
    expect(reply.processedCount).toBe(7);
    expect(reply.duplicateCount).toBe(1);
    expect(reply.conflicts).toEqual([{ trip: overlapping, conflictsWith: 'VS125/VS126 (12/07/2026 to 12/08/2026)' }]);
    expect(await tripsOf(pilot.id)).toHaveLength(7);
  });

  it('skips trips that ended more than 7 days ago and keeps one that ended within 7 days', async () => {
    const pilot = await registerPilot(service, makePilot({ fleet: 'B787' }));
    const old = { flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK', startDate: '2026-10-20', endDate: addDays(TODAY, -8), aircraft: null, icsDescription: null };
    const recent = { ...old, flightNoStart: 'VS011', flightNoEnd: 'VS012', route: 'BOS', startDate: '2026-10-24', endDate: addDays(TODAY, -7) };
    const reply = await ask(RPC.importTrips, { pilotId: pilot.id, trips: [old, recent] }, ImportTripsReply);
    expect(reply.processedCount).toBe(1);
    expect(reply.skipped).toEqual([{ trip: old, reason: 'Trip ended more than 7 days ago' }]);
    const [kept] = await tripsOf(pilot.id);
    expect(kept).toMatchObject({ flightNoStart: 'VS011', endDate: '2026-10-25', aircraft: 'B787' });
  });

  it('drops excluded airports from imported routes and skips trips it cannot read', async () => {
    const pilot = await registerPilot(service, makePilot({ fleet: 'A350' }));
    const base = { flightNoStart: 'VS003', flightNoEnd: 'VS004', startDate: '2026-11-03', endDate: '2026-11-04', aircraft: null, icsDescription: 'x\u0000y' };
    const reply = await ask(
      RPC.importTrips,
      {
        pilotId: pilot.id,
        trips: [
          { ...base, route: 'LHR-JFK' },
          { ...base, route: 'XQX', startDate: '2026-11-06', endDate: '2026-11-07' },
          { ...base, route: 'BOS', flightNoStart: 'BA123', startDate: '2026-11-09', endDate: '2026-11-10' },
        ],
      },
      ImportTripsReply,
    );
    expect(reply.processedCount).toBe(1);
    expect(reply.skipped.map((skip) => skip.reason)).toEqual([
      'Invalid airport code(s): XQX (not in IATA database)',
      'Flight numbers must be exactly 3 digits each.',
    ]);
    expect(await tripsOf(pilot.id)).toMatchObject([{ route: 'JFK', aircraft: 'A350', icsDescription: 'xy' }]);
  });

  it('an import for a pilot the directory does not know answers a clear error', async () => {
    await expect(ask(RPC.importTrips, { pilotId: '00000000-0000-4000-8000-0000000000aa', trips: rosterA }, ImportTripsReply)).rejects.toMatchObject({
      status: 409,
      message: 'Your pilot profile is not ready yet. Please try again in a moment.',
    });
    await expect(ask(RPC.importTrips, { pilotId: 'nope', trips: [] }, ImportTripsReply)).rejects.toMatchObject({ status: 400 });
  });

  describe('purge at the 7-day boundary', () => {
    let pilotId: string;
    beforeAll(async () => {
      pilotId = (await registerPilot(service, makePilot({ fleet: 'A350' }))).id;
      await ask(RPC.importTrips, { pilotId, trips: rosterA }, ImportTripsReply);
    });

    it('previews and purges trips that ended more than 7 days ago, publishing trips.trip.deleted', async () => {
      // 2026-11-14: VS019/VS020 ended 2026-11-06 (8 days ago), the SBY 2026-11-08 (6 days ago).
      service.clock.set('2026-11-14T12:00:00Z');
      const before = (await tripsOf(pilotId)).length;
      const preview = await ask(RPC.purgePreview, { retentionDays: 7 }, PurgePreviewReply);
      expect(preview.tripsToDelete).toBeGreaterThanOrEqual(1);
      const purged = await ask(RPC.purgeTrips, { retentionDays: 7 }, PurgeTripsReply);
      expect(purged.tripsDeleted).toBe(preview.tripsToDelete);
      const left = await tripsOf(pilotId);
      expect(left).toHaveLength(before - 1);
      expect(left.some((trip) => trip.flightNoStart === 'VS019')).toBe(false);
      expect(left.some((trip) => trip.route === 'SBY')).toBe(true);
      const deleted = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripDeleted });
      expect(deleted.some((row: { envelope: { data: { trip: Trip } } }) => row.envelope.data.trip.flightNoStart === 'VS019' && row.envelope.data.trip.pilotId === pilotId)).toBe(true);

      // 2026-11-15: the SBY ended exactly 7 days ago and stays; 2026-11-16 it goes.
      service.clock.set('2026-11-15T23:30:00Z');
      await ask(RPC.purgeTrips, { retentionDays: 7 }, PurgeTripsReply);
      expect((await tripsOf(pilotId)).some((trip) => trip.route === 'SBY')).toBe(true);
      service.clock.set('2026-11-16T00:30:00Z');
      await ask(RPC.purgeTrips, { retentionDays: 7 }, PurgeTripsReply);
      expect((await tripsOf(pilotId)).some((trip) => trip.route === 'SBY')).toBe(false);
      service.clock.set(`${TODAY}T12:00:00Z`);
    });

    it('refuses a retention outside 1-30 days', async () => {
      await expect(ask(RPC.purgeTrips, { retentionDays: 0 }, PurgeTripsReply)).rejects.toMatchObject({ status: 400 });
    });
  });

  it('counts trips per pilot, with zero for a pilot without trips', async () => {
    const withTrips = await registerPilot(service, makePilot({ fleet: 'A350' }));
    await ask(RPC.importTrips, { pilotId: withTrips.id, trips: rosterA.slice(0, 3) }, ImportTripsReply);
    const without = makePilot();
    const reply = await ask(RPC.tripCounts, { pilotIds: [withTrips.id, without.id] }, TripCountsReply);
    expect(reply.counts).toEqual({ [withTrips.id]: 3, [without.id]: 0 });
    const all = await ask(RPC.tripCounts, {}, TripCountsReply);
    expect(all.counts[withTrips.id]).toBe(3);
  });

  it('answers which airport codes are in the IATA list, including one a pilot just added', async () => {
    expect(await ask(RPC.knownAirports, { codes: ['JFK', 'LAX', 'XQZ'] }, KnownAirportsReply)).toEqual({ known: ['JFK', 'LAX'] });
    await service.useCases.addIataCode.execute({ iataCode: 'XQZ' });
    expect(await ask(RPC.knownAirports, { codes: ['XQZ'] }, KnownAirportsReply)).toEqual({ known: ['XQZ'] });
    await expect(ask(RPC.knownAirports, { codes: ['jfk'] }, KnownAirportsReply)).rejects.toMatchObject({ status: 400 });
  });

  it('seeds demo trips for test pilots once: two months, no overlaps, standbys, about a fifth offered', async () => {
    // Fixed ids: the demo's choices follow each pilot's id, so the share offered is the same every run.
    const pilots = Array.from({ length: 12 }, (_, i) =>
      makePilot({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, testData: true, fleet: (['A330', 'A350', 'SFF', 'B787'] as const)[i % 4] }),
    );
    const reply = await ask(RPC.seedDemoTrips, { pilots }, SeedDemoTripsReply);
    expect(reply.created).toBeGreaterThan(12 * 5);
    let offered = 0;
    let total = 0;
    for (const pilot of pilots) {
      const trips = await tripsOf(pilot.id);
      expect(trips.length).toBeGreaterThan(4);
      trips.forEach((trip, i) => {
        const next = trips[i + 1];
        if (next) expect(next.startDate > trip.endDate).toBe(true);
        expect(trip.startDate > TODAY && trip.endDate <= addDays(TODAY, 60)).toBe(true);
        expect(trip.flightNoStart).toMatch(/^VS\d{3}$/);
        if (trip.isStandby) expect(trip.aircraft).toBeNull();
        else expect(pilot.fleet === 'SFF' ? ['A330', 'A350', 'SFF'] : [pilot.fleet]).toContain(trip.aircraft);
        if (trip.isSwappable) expect(trip.swapDescription).toBeTruthy();
      });
      offered += trips.filter((trip) => trip.isSwappable).length;
      total += trips.length;
    }
    expect(offered / total).toBeGreaterThan(0.08);
    expect(offered / total).toBeLessThan(0.35);
    expect((await ask(RPC.seedDemoTrips, { pilots }, SeedDemoTripsReply)).created).toBe(0);
  });
});
