import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUBJECTS, type RosterTripChange, type RosterUploadResult } from '@crewswap/proto';
import { adminCookie, multipart, pilotCookie, registerPilot, startTestStack, type TestStack } from './helpers';
import { readFixture, tripKey } from './fixtures';

interface ExpectedChange {
  kind: 'added' | 'changed' | 'removed';
  before?: string;
  after?: string;
  afterDescriptionContains?: string;
}
interface ExpectedChanges {
  base: string;
  pilotBase: 'LHR' | 'MAN';
  fleet: 'A350' | 'A330' | 'B787';
  unchanged: number;
  changes: ExpectedChange[];
}

const CHANGES_DIR = join(__dirname, 'fixtures/rosters/changes');
const expectedChanges = JSON.parse(readFileSync(join(CHANGES_DIR, 'expected.json'), 'utf8')) as { files: Record<string, ExpectedChanges> };
const readChanged = (name: string) => readFileSync(join(CHANGES_DIR, name));
const named = (trip: RosterTripChange['before']) => (trip ? tripKey(trip) : undefined);

describe('roster changes: a new roster against the trips of earlier ones', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false } });
  });
  afterAll(async () => {
    await stack.stop();
  });

  const upload = async (pilotId: string, fileName: string, content: Buffer | string): Promise<RosterUploadResult> => {
    const body = multipart(fileName, content);
    const response = await stack.roster.app.inject({ method: 'POST', url: '/api/roster/upload', payload: body.payload, headers: body.headers, cookies: pilotCookie(pilotId) });
    expect(response.statusCode).toBe(200);
    return response.json() as RosterUploadResult;
  };
  const tripsOf = (pilotId: string) => stack.trips.repositories.trips.listByPilot(pilotId);

  describe.each(Object.entries(expectedChanges.files))('%s', (name, file) => {
    let pilotId: string;
    let result: RosterUploadResult;
    let before: Awaited<ReturnType<typeof tripsOf>>;
    beforeAll(async () => {
      pilotId = (await registerPilot(stack, { base: file.pilotBase, fleet: file.fleet, rank: 'FO' })).id;
      await upload(pilotId, file.base, readFixture(file.base));
      before = await tripsOf(pilotId);
      result = await upload(pilotId, name, readChanged(name));
    });

    it('reports each change, trip by trip, with its before and after', () => {
      const order = (change: { kind: string; before?: string; after?: string }) => `${(change.before ?? change.after)!.split(' ')[3]} ${change.kind}`;
      const reported = result.changes.map((change) => ({ kind: change.kind, before: named(change.before), after: named(change.after) })).sort((a, b) => order(a).localeCompare(order(b)));
      const wanted = file.changes.map(({ kind, before, after }) => ({ kind, before, after })).sort((a, b) => order(a).localeCompare(order(b)));
      expect(reported).toEqual(wanted);
      for (const change of file.changes.filter((item) => item.afterDescriptionContains)) {
        const found = result.changes.find((item) => named(item.after) === change.after);
        expect(found?.after?.icsDescription).toContain(change.afterDescriptionContains);
        expect(found?.before?.icsDescription).not.toContain(change.afterDescriptionContains);
      }
    });

    it("counts them and says so: '<a> added, <c> changed, <r> removed'", () => {
      const count = (kind: string) => file.changes.filter((change) => change.kind === kind).length;
      expect(result).toMatchObject({ addedCount: count('added'), changedCount: count('changed'), removedCount: count('removed'), processedCount: count('added') });
      expect(result.duplicateCount).toBe(file.unchanged);
      expect(result.message).toBe(`${count('added')} added, ${count('changed')} changed, ${count('removed')} removed, ${file.unchanged} duplicates skipped`);
    });

    it('leaves the trips as the new roster has them: removed deleted, changed updated in place (same id), unchanged untouched', async () => {
      const after = await tripsOf(pilotId);
      const removed = file.changes.filter((change) => change.kind === 'removed').map((change) => change.before);
      const keysNow = after.map(tripKey);
      for (const key of removed) expect(keysNow).not.toContain(key);
      for (const change of file.changes.filter((item) => item.kind === 'changed')) {
        const reported = result.changes.find((item) => named(item.after) === change.after)!;
        const old = before.find((trip) => trip.id === reported.tripId)!;
        expect(tripKey(old)).toBe(change.before);
        expect(tripKey(after.find((trip) => trip.id === reported.tripId)!)).toBe(change.after);
      }
      expect(after).toHaveLength(before.length + file.changes.filter((c) => c.kind === 'added').length - removed.length);
      const untouched = before.filter((trip) => !result.changes.some((change) => change.tripId === trip.id));
      expect(untouched).toHaveLength(file.unchanged);
      for (const trip of untouched) expect(after.find((item) => item.id === trip.id)).toEqual(trip);
    });

    it('importing the same roster again changes nothing and reports nothing changed', async () => {
      const now = await tripsOf(pilotId);
      const again = await upload(pilotId, name, readChanged(name));
      expect(again).toMatchObject({ addedCount: 0, changedCount: 0, removedCount: 0, changes: [], conflictCount: 0 });
      expect(again.duplicateCount).toBe(now.length);
      expect(again.message).toMatch(/^Already imported: /);
      expect(await tripsOf(pilotId)).toEqual(now);
    });
  });

  it('records the counts and changes in roster history and in roster.roster.processed', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    await upload(pilot.id, 'roster-c.ics', readFixture('roster-c-lhr-b787-fo.ics_'));
    const result = await upload(pilot.id, 'roster-c-changed.ics', readChanged('roster-c-changed.ics_'));
    const history = await stack.roster.app.inject({ method: 'GET', url: `/api/admin/roster-history?search=${encodeURIComponent('roster-c-changed')}`, cookies: adminCookie() });
    const record = history.json().records.find((item: { pilotId: string }) => item.pilotId === pilot.id);
    expect(record).toMatchObject({ tripsAdded: 1, tripsChanged: 3, tripsRemoved: 1 });
    expect(record.changes).toEqual(result.changes);
    const rows = await stack.roster.runtime.db('outbox').where({ subject: SUBJECTS.rosterProcessed }).orderBy('seq');
    const events = rows
      .map((row: { envelope: { data: { pilotId: string; changedTripIds?: string[] } } }) => row.envelope.data)
      .filter((data: { pilotId: string }) => data.pilotId === pilot.id);
    expect(events[1]).toMatchObject({ processedCount: 1, changedCount: 3, removedCount: 1 });
    expect([...(events[1]?.changedTripIds ?? [])].sort()).toEqual(result.changes.filter((change) => change.kind === 'changed').map((change) => change.tripId).sort());
  });

  it('never removes a typed trip; a changed duty overlapping one is a conflict and the old trip stays', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    const { trips } = stack.trips.repositories;
    await upload(pilot.id, 'roster-c.ics', readFixture('roster-c-lhr-b787-fo.ics_'));
    // Typed in the app where the new roster moves P2018 (10-14 Dec): on 14 Dec, and inside the period elsewhere.
    const typed = await trips.insertMany(pilot.id, [
      typedTrip('VS301', 'VS302', 'JFK', '2026-12-14', '2026-12-14'),
      typedTrip('VS303', 'VS304', 'JFK', '2026-12-19', '2026-12-20'),
    ]);
    const result = await upload(pilot.id, 'roster-c-changed.ics', readChanged('roster-c-changed.ics_'));
    const now = await tripsOf(pilot.id);
    for (const trip of typed) expect(now.find((item) => item.id === trip.id)).toEqual(trip);
    expect(result.changes.map((change) => change.before?.flightNoStart)).not.toContain('VS301');
    expect(result.conflicts).toEqual([expect.stringContaining('VS065/VS066 (12/10/2026 to 12/14/2026) overlaps VS301/VS302')]);
    expect(now.map(tripKey)).toContain('VS065 VS066 BGI-GND 2026-12-09 2026-12-13 B787');
    expect(result.changedCount).toBe(2);
  });

  it('withdraws the offer on a changed trip, keeps the Keep flag, and publishes the update and the deletion', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    const { trips } = stack.trips.repositories;
    await upload(pilot.id, 'roster-c.ics', readFixture('roster-c-lhr-b787-fo.ics_'));
    const held = await tripsOf(pilot.id);
    const moved = held.find((trip) => trip.flightNoStart === 'VS065')!;
    const renumbered = held.find((trip) => trip.flightNoStart === 'VS007')!;
    const gone = held.find((trip) => trip.flightNoStart === 'VS411')!;
    await trips.update(moved.id, { isSwappable: true, swapDescription: 'Any Caribbean' });
    await trips.update(renumbered.id, { requested: true });
    await trips.update(gone.id, { isSwappable: true });
    await upload(pilot.id, 'roster-c-changed.ics', readChanged('roster-c-changed.ics_'));
    const now = await tripsOf(pilot.id);
    expect(now.find((trip) => trip.id === moved.id)).toMatchObject({ isSwappable: false, startDate: '2026-12-10' });
    expect(now.find((trip) => trip.id === renumbered.id)).toMatchObject({ requested: true, flightNoStart: 'VS023' });
    expect(now.find((trip) => trip.id === gone.id)).toBeUndefined();
    const rows: { subject: string; envelope: { data: { trip?: { id: string; isSwappable: boolean }; tripId?: string; origin?: { channel: string } } } }[] = await stack.trips.runtime
      .db('outbox')
      .whereIn('subject', [SUBJECTS.tripUpdated, SUBJECTS.tripDeleted])
      .orderBy('seq');
    const updated = rows.filter((row) => row.subject === SUBJECTS.tripUpdated && row.envelope.data.trip?.id === moved.id).at(-1)!;
    expect(updated.envelope.data).toMatchObject({ trip: { isSwappable: false }, origin: { channel: 'roster_upload' } });
    expect(rows.some((row) => row.subject === SUBJECTS.tripDeleted && row.envelope.data.tripId === gone.id)).toBe(true);
  });

  it('applies two racing imports of one pilot one after the other, never interleaved', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    await upload(pilot.id, 'roster-c.ics', readFixture('roster-c-lhr-b787-fo.ics_'));
    const [first, second] = await Promise.all([
      upload(pilot.id, 'roster-c-changed.ics', readChanged('roster-c-changed.ics_')),
      upload(pilot.id, 'roster-c-changed.ics', readChanged('roster-c-changed.ics_')),
    ]);
    // One of them made every change; the other found them made.
    const results = [first, second].sort((a, b) => b.changes.length - a.changes.length);
    expect(results[0]).toMatchObject({ addedCount: 1, changedCount: 3, removedCount: 1 });
    expect(results[1]).toMatchObject({ addedCount: 0, changedCount: 0, removedCount: 0, conflictCount: 0 });
    const now = await tripsOf(pilot.id);
    expect(now).toHaveLength(9);
    expect(new Set(now.map(tripKey)).size).toBe(9);
  });
});

function typedTrip(flightNoStart: string, flightNoEnd: string, route: string, startDate: string, endDate: string) {
  return {
    flightNoStart,
    flightNoEnd,
    aircraft: 'B787' as const,
    route,
    startDate,
    endDate,
    isSwappable: false,
    offerType: 'swap' as const,
    training: false,
    requested: false,
    companions: null,
    swapDescription: null,
    icsDescription: null,
    searchStartDate: null,
    searchEndDate: null,
    isStandby: false,
    source: 'manual' as const,
  };
}
