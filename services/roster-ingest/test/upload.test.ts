import { SUBJECTS, ROSTER_MESSAGES, RosterHistoryRecord, RosterStats } from '@crewswap/proto';
import { z } from 'zod';
import { CALENDAR_FIXTURES, expected, readFixture, tripKey } from './fixtures';
import { adminCookie, multipart, pilotCookie, registerPilot, startTestStack, type TestStack } from './helpers';

describe('roster upload: POST /api/roster/upload', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false } });
  });
  afterAll(async () => {
    await stack.stop();
  });

  const upload = (pilotId: string | null, fileName: string, content: Buffer | string, field = 'roster') => {
    const body = multipart(fileName, content, field);
    return stack.roster.app.inject({
      method: 'POST',
      url: '/api/roster/upload',
      payload: body.payload,
      headers: { ...body.headers, 'user-agent': 'jest-browser' },
      cookies: pilotId ? pilotCookie(pilotId) : {},
    });
  };
  const tripsOf = (pilotId: string) => stack.trips.repositories.trips.listByPilot(pilotId);

  it.each(CALENDAR_FIXTURES)('%s imports to exactly the trips its README lists', async (name) => {
    const file = expected.files[name]!;
    const pilot = await registerPilot(stack, { base: file.base, fleet: name.includes('a330') ? 'A330' : name.includes('b787') ? 'B787' : 'A350', rank: 'FO' });
    const response = await upload(pilot.id, name, readFixture(name));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.processedCount).toBe(file.trips!.length);
    expect(body.duplicateCount).toBe(0);
    const stored = await tripsOf(pilot.id);
    expect(stored.map(tripKey).sort()).toEqual(file.trips!.map(tripKey).sort());
    expect(new Set(stored.map((trip) => trip.source))).toEqual(new Set(['upload']));
    if (name.startsWith('roster-b')) {
      expect(body.conflictCount).toBe(1);
      expect(body.conflicts[0]).toContain('VS127/VS128 (12/08/2026 to 12/11/2026) overlaps VS125/VS126');
    }
  });

  it('re-uploading a roster gives duplicates, not conflicts, and stores nothing twice', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'A350' });
    await upload(pilot.id, 'roster.ics', readFixture('roster-a-lhr-a350-cp.ics'));
    const again = await upload(pilot.id, 'roster.ics', readFixture('roster-a-lhr-a350-cp.ics'));
    expect(again.json()).toMatchObject({ processedCount: 0, duplicateCount: 9, conflictCount: 0, message: 'Already imported: 0 trips added, 9 duplicates skipped' });
    expect(await tripsOf(pilot.id)).toHaveLength(9);
  });

  it('publishes roster.roster.processed with the pilot id and counts after every import', async () => {
    const pilot = await registerPilot(stack, { base: 'LHR', fleet: 'B787' });
    await upload(pilot.id, 'roster-c.ics', readFixture('roster-c-lhr-b787-fo.ics_'));
    const rows = await stack.roster.runtime.db('outbox').where({ subject: SUBJECTS.rosterProcessed });
    const mine = rows.map((row: { envelope: { data: { pilotId: string } } }) => row.envelope.data).filter((data: { pilotId: string }) => data.pilotId === pilot.id);
    expect(mine).toEqual([expect.objectContaining({ pilotId: pilot.id, source: 'manual_upload', processedCount: 9, duplicateCount: 0, conflictCount: 0 })]);
  });

  describe('refusals, in the spec words, store nothing', () => {
    let pilotId: string;
    beforeAll(async () => {
      pilotId = (await registerPilot(stack)).id;
    });

    it("a file whose name has no .ics or .cal: 'Only calendar files with .ics, .ics_, or .cal extensions are supported'", async () => {
      const response = await upload(pilotId, 'roster.pdf', readFixture('roster-a-lhr-a350-cp.ics'));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: ROSTER_MESSAGES.UNSUPPORTED_EXTENSION, message: 'Only calendar files with .ics, .ics_, or .cal extensions are supported' });
    });

    it("a file over 10 MB: 413 'File size must be less than 10MB'", async () => {
      const big = Buffer.alloc(10 * 1024 * 1024 + 10, 'A');
      const response = await upload(pilotId, 'big.ics', big);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ error: 'File size must be less than 10MB', message: 'File size must be less than 10MB' });
    });

    it.each([
      ['not a calendar', 'notes.ics', 'hello', ROSTER_MESSAGES.NOT_A_CALENDAR],
      ['truncated', 'cut.ics', readFixture('roster-b-man-a330-fo.ics').subarray(0, 5000), ROSTER_MESSAGES.MALFORMED_CALENDAR],
      ['empty calendar', 'empty.cal', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n', ROSTER_MESSAGES.EMPTY_CALENDAR],
      ['empty file', 'nothing.ics', '', ROSTER_MESSAGES.NOT_A_CALENDAR],
    ])('%s is refused with a clear message', async (_, name, content, message) => {
      const response = await upload(pilotId, name, content);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: message, message });
    });

    it('no file in the roster field', async () => {
      const response = await upload(pilotId, 'roster.ics', 'BEGIN:VCALENDAR', 'other');
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(ROSTER_MESSAGES.NO_FILE);
    });

    it('nothing was stored for the refused uploads', async () => {
      expect(await tripsOf(pilotId)).toEqual([]);
    });

    it('no session: 401 Session expired', async () => {
      const response = await upload(null, 'roster.ics', readFixture('roster-a-lhr-a350-cp.ics'));
      expect(response.statusCode).toBe(401);
    });
  });

  describe('Roster Processing History', () => {
    const History = z.object({ records: z.array(RosterHistoryRecord), total: z.number() });
    it('records every upload with its fields, and filters by source, status, date range and search', async () => {
      const pilot = await registerPilot(stack, { base: 'MAN', fleet: 'A330', firstName: 'Rhys', lastName: 'Abernathy' });
      await upload(pilot.id, 'roster-b.ics', readFixture('roster-b-man-a330-fo.ics'));
      const response = await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history?search=Abernathy', cookies: adminCookie() });
      expect(response.statusCode).toBe(200);
      const { records } = History.parse(response.json());
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        pilotId: pilot.id,
        pilotName: 'Rhys Abernathy',
        employeeId: pilot.employeeId,
        success: true,
        sourceType: 'manual_upload',
        fileName: 'roster-b.ics',
        attachmentCount: 1,
        fileSizeBytes: readFixture('roster-b-man-a330-fo.ics').length,
        totalEvents: 31,
        tripsAdded: 7,
        duplicateEvents: 1,
        conflictEvents: 2,
        skippedEvents: 15,
        userAgent: 'jest-browser',
        confirmationEmailSent: false,
        errorType: null,
      });
      expect(records[0]!.durationMs).toBeGreaterThanOrEqual(0);

      const failed = History.parse((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history?status=failed&source=manual_upload&range=today', cookies: adminCookie() })).json());
      expect(failed.records.length).toBeGreaterThanOrEqual(5);
      expect(failed.records.every((record) => !record.success && record.errorType && record.errorMessage)).toBe(true);
      const email = History.parse((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history?source=email', cookies: adminCookie() })).json());
      expect(email.records).toEqual([]);
    });

    it('stats count what the history holds', async () => {
      const stats = RosterStats.parse((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history/stats', cookies: adminCookie() })).json());
      const all = History.parse((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history?limit=500', cookies: adminCookie() })).json());
      expect(stats.totalProcessed).toBe(all.total);
      expect(stats.manualProcessed).toBe(all.total);
      expect(stats.emailProcessed).toBe(0);
      expect(stats.successfulProcessed).toBe(all.records.filter((record) => record.success).length);
      expect(stats.totalTripsAdded).toBe(all.records.reduce((sum, record) => sum + record.tripsAdded, 0));
    });

    it('a pilot or no session is refused; a bad filter is a 400', async () => {
      const pilot = await registerPilot(stack);
      expect((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history', cookies: pilotCookie(pilot.id) })).statusCode).toBe(401);
      expect((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history/stats' })).statusCode).toBe(401);
      expect((await stack.roster.app.inject({ method: 'GET', url: '/api/admin/roster-history?status=maybe', cookies: adminCookie() })).statusCode).toBe(400);
    });
  });
});
