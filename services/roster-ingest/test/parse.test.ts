import { ROSTER_MESSAGES } from '@crewswap/proto';
import { parseRoster } from '../src/domain/parse-roster';
import { readRosterFile } from '../src/domain/read-roster-file';
import { conflictsOf, readFixture, repoFixtures, sharedFixtures, tripKey, tripKeyNoAircraft, type FixtureSet } from './fixtures';
import { manyExceptionsCalendar } from './hostile';

const parse = (text: string, base: 'LHR' | 'MAN' = 'LHR') => parseRoster(text, { base });
const keys = (text: string, base: 'LHR' | 'MAN' = 'LHR') => parse(text, base).trips.map(({ trip }) => tripKey(trip));

/** A small calendar in a style none of the fixtures uses. */
function calendar(events: string[], header = ''): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', header, ...events, 'END:VCALENDAR', ''].filter(Boolean).join('\r\n');
}
const vevent = (lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');

/** Every record a fixture lists, in order; what trips refuses as a conflict; and every event accounted for. */
function checkFixture(set: FixtureSet, name: string) {
  const file = set.expected.files[name]!;
  const parsed = parse(set.read(name).toString('utf8'), file.base);
  const stored = new Set(file.trips!.map(tripKey));
  const extra = parsed.trips.filter(({ trip }) => !stored.has(tripKey(trip)));
  expect(parsed.trips.map(({ trip }) => tripKey(trip)).filter((key) => stored.has(key))).toEqual(file.trips!.map(tripKey));
  expect(extra.map(({ trip }) => tripKeyNoAircraft(trip))).toEqual(conflictsOf(file).map(tripKeyNoAircraft));
  for (const want of file.trips!) {
    const got = parsed.trips.find(({ trip }) => tripKey(trip) === tripKey(want))!.trip;
    expect(got.icsDescription).toContain(want.icsDescriptionContains);
  }
  const used = parsed.trips.reduce((sum, trip) => sum + trip.events, 0);
  expect(parsed.totalEvents).toBe(file.eventCount);
  expect(used + parsed.skipped.length + parsed.duplicateEvents).toBe(file.eventCount);
  const conflictEvents = extra.reduce((sum, trip) => sum + trip.events, 0);
  expect(parsed.skipped.length + parsed.duplicateEvents + conflictEvents).toBe(file.skippedEventCount);
  expect(parsed.skipped.every((skip) => skip.reason.length > 0)).toBe(true);
}

describe('roster parsing: each fixture gives exactly the records its README lists', () => {
  it.each(repoFixtures.calendars)('%s', (name) => checkFixture(repoFixtures, name));

  // The shared oracle beside the repository, where a checkout has it; a plain clone skips this.
  (sharedFixtures ? describe : describe.skip)('the shared fixtures beside the repository', () => {
    it.each(sharedFixtures?.calendars ?? ['(absent)'])('%s', (name) => checkFixture(sharedFixtures!, name));
  });

  it("the repository's fixtures keep the line ends their styles test: CRLF and folded (A, B, D), LF with long lines (C)", () => {
    const text = (name: string) => readFixture(name).toString('utf8');
    for (const name of ['roster-a-lhr-a350-cp.ics', 'roster-b-man-a330-fo.ics', 'roster-d-lhr-a350-interbids.ics']) {
      expect({ name, bareLf: /[^\r]\n/.test(text(name)), folded: /\r\n /.test(text(name)) }).toEqual({ name, bareLf: false, folded: true });
    }
    const c = text('roster-c-lhr-b787-fo.ics_');
    expect({ crlf: c.includes('\r'), longLine: c.split('\n').some((line) => line.length > 75) }).toEqual({ crlf: false, longLine: true });
  });

  it('reads the same roster with LF line ends, unfolded lines and events in reverse order', () => {
    const text = readFixture('roster-a-lhr-a350-cp.ics').toString('utf8');
    const lf = text.replace(/\r\n/g, '\n').replace(/\n[ \t]/g, '');
    const blocks = lf.split(/(?=BEGIN:VEVENT)/);
    const head = blocks.shift()!;
    const last = blocks.pop()!.replace(/END:VCALENDAR\s*$/, '');
    const reversed = `${head}${[last, ...blocks.reverse()].join('')}END:VCALENDAR\n`;
    expect(keys(reversed)).toEqual(keys(text));
  });

  it('takes the base from the roster when the pilot is not known yet', () => {
    const text = readFixture('roster-b-man-a330-fo.ics').toString('utf8');
    const parsed = parseRoster(text);
    expect(parsed.base).toBe('MAN');
    expect(parsed.trips.map(({ trip }) => tripKey(trip))).toEqual(keys(text, 'MAN'));
  });

  it('UTC or outstation dates are not used: a return departing before midnight UTC-5 ends on the base-local date', () => {
    const text = calendar([
      vevent(['UID:1', 'DTSTART:20261201T093000Z', 'DTEND:20261201T171000Z', 'SUMMARY:VS 9 LHR-ORD']),
      vevent(['UID:2', 'DTSTART;TZID=America/Chicago:20261202T213000', 'DTEND;TZID=America/Chicago:20261203T050000', 'SUMMARY:VS  10   ORD \u2013 LHR  B789']),
    ]);
    expect(keys(text)).toEqual(['VS009 VS010 ORD 2026-12-01 2026-12-03 B787']);
  });

  it('Windows zone names and floating times are read as base-local time', () => {
    const text = calendar([
      vevent(['UID:a', 'DTSTART;TZID=GMT Standard Time:20260615T234500', 'DTEND;TZID=GMT Standard Time:20260616T003000', 'SUMMARY:rsv']),
      vevent(['UID:b', 'DTSTART:20260620T080000', 'DTEND:20260620T200000', 'SUMMARY:SBY-A LHR']),
    ]);
    // 23:45-00:30 BST: a reserve ending after midnight ends the next day (FORMAT.md D4).
    expect(keys(text)).toEqual(['VS000 VS000 RSV 2026-06-15 2026-06-16 -', 'VS000 VS000 ASBY 2026-06-20 2026-06-20 -']);
  });

  it('positioning-only chains and other carriers never become trips or supply flight numbers', () => {
    const text = calendar([
      vevent(['UID:1', 'DTSTART:20261201T080000Z', 'DTEND:20261201T090000Z', 'SUMMARY:DH BA1386 LHR-EDI']),
      vevent(['UID:2', 'DTSTART:20261201T100000Z', 'DTEND:20261201T180000Z', 'SUMMARY:VS0024 EDI 1000 JFK 1300 333']),
      vevent(['UID:3', 'DTSTART:20261203T100000Z', 'DTEND:20261203T180000Z', 'SUMMARY:VS0025 JFK 1000 LHR 2200 333']),
      vevent(['UID:4', 'DTSTART:20261205T100000Z', 'DTEND:20261205T110000Z', 'SUMMARY:PAX BA1 LHR-MAN']),
      vevent(['UID:5', 'DTSTART:20261206T100000Z', 'DTEND:20261206T110000Z', 'SUMMARY:PAX BA2 MAN-LHR']),
    ]);
    const parsed = parse(text);
    expect(parsed.trips.map(({ trip }) => tripKey(trip))).toEqual(['VS024 VS025 EDI-JFK 2026-12-01 2026-12-03 A330']);
    expect(parsed.skipped.map((skip) => skip.reason)).toEqual(['Positioning only, no operated flight', 'Positioning only, no operated flight']);
  });

  describe('positioning by road, rail, bus or taxi, anywhere in a pairing, neither drops nor splits it nor gives it a flight number', () => {
    // Roster D is Interbids-like: one event per pairing, its legs (4-digit flight numbers) in DESCRIPTION.
    const interbids = keys(readFixture('roster-d-lhr-a350-interbids.ics').toString('utf8'));
    it.each([
      ['a taxi with times in the middle', 'VS133 VS004 JFK-EWR 2027-02-02 2027-02-05 A350'],
      ['rail in the middle', 'VS041 VS042 SFO-SJC 2027-02-08 2027-02-11 A350'],
      ['a bus first, from the base', 'VS027 VS028 LGW-MCO 2027-02-14 2027-02-18 A350'],
      ['a coach last, back to the base', 'VS103 VS104 ATL-LGW 2027-02-20 2027-02-23 A350'],
      ['several: a car first, another carrier in the middle, a train with a designator of its own last', 'VS029 VS030 LGW-BGI 2027-02-25 2027-03-02 A350'],
    ])('Interbids-like pairing with %s', (_, record) => {
      expect(interbids).toContain(record);
    });

    it('a flown leg that mentions a bus or car elsewhere on its line is still flown', () => {
      const text = calendar([
        vevent([
          'UID:1',
          'DTSTART:20270402T084500Z',
          'DTEND:20270404T081000Z',
          'SUMMARY:VS0137 LHR-JFK-LHR 3D',
          'DESCRIPTION:02APR VS0137 LHR 10:00 JFK 13:05 A351 hotel by bus\\n03APR VS0138 JFK 19:30 LHR 07:40 A351 crew car at 17:30',
        ]),
      ]);
      expect(keys(text)).toEqual(['VS137 VS138 JFK 2027-04-02 2027-04-04 A350']);
    });

    it('a pairing of ground legs only (to a course and back) is positioning, not a trip', () => {
      const parsed = parse(readFixture('roster-d-lhr-a350-interbids.ics').toString('utf8'));
      expect(parsed.skipped.find((skip) => skip.date === '2027-03-10')?.reason).toBe('Positioning only, no operated flight');
    });

    it('one event per sector: road and rail legs of their own, with or without times, first, middle and last', () => {
      const text = calendar([
        vevent(['UID:1', 'DTSTART:20261201T060000Z', 'DTEND:20261201T071500Z', 'SUMMARY:BUS LHR 0600 LGW 0715']),
        vevent(['UID:2', 'DTSTART:20261201T093000Z', 'DTEND:20261201T183000Z', 'SUMMARY:VS15 LGW 0930 MCO 1330 351']),
        vevent(['UID:3', 'DTSTART:20261203T140000Z', 'DTEND:20261203T153000Z', 'SUMMARY:RAIL MCO-TPA']),
        vevent(['UID:4', 'DTSTART:20261203T230000Z', 'DTEND:20261204T073000Z', 'SUMMARY:VS0016 TPA 1800 MAN 0730 351']),
        vevent(['UID:5', 'DTSTART:20261204T090000Z', 'DTEND:20261204T113000Z', 'SUMMARY:Train MAN 09:00 \u2013 LHR 11:30']),
      ]);
      const parsed = parse(text);
      expect(parsed.trips.map(({ trip }) => tripKey(trip))).toEqual(['VS015 VS016 LGW-MCO 2026-12-01 2026-12-04 A350']);
      expect(parsed.trips[0]!.events).toBe(5);
      expect(parsed.skipped).toEqual([]);
    });
  });

  describe('a malformed, truncated, empty or non-calendar file is refused', () => {
    it.each([
      ['a text file', 'hello, this is my roster', 'NOT_A_CALENDAR'],
      ['a file that is empty', '', 'NOT_A_CALENDAR'],
      ['a PDF', '%PDF-1.4\n%\u00e2\u00e3', 'NOT_A_CALENDAR'],
      ['a calendar with no events', calendar([]), 'EMPTY_CALENDAR'],
      ['a truncated calendar', readFixture('roster-a-lhr-a350-cp.ics').toString('utf8').slice(0, 3000), 'MALFORMED_CALENDAR'],
      ['unbalanced BEGIN and END', calendar(['BEGIN:VEVENT\r\nUID:1\r\nDTSTART:20261201T080000Z\r\nSUMMARY:SBY\r\nEND:VTODO']), 'MALFORMED_CALENDAR'],
      ['content after the end', `${calendar([vevent(['UID:1', 'DTSTART:20261201T080000Z', 'SUMMARY:SBY'])])}BEGIN:VEVENT\r\n`, 'MALFORMED_CALENDAR'],
    ])('%s', (_, text, type) => {
      expect(() => parse(text)).toThrow(expect.objectContaining({ type }));
    });

    it('accepts a byte order mark before BEGIN:VCALENDAR', () => {
      const text = `\uFEFF${readFixture('roster-c-lhr-b787-fo.ics_').toString('utf8')}`;
      expect(keys(text)).toHaveLength(9);
    });
  });

  describe('repeating events', () => {
    it('a repeating duty is read as its first occurrence: its rule and its added and left-out dates are not read', () => {
      const text = calendar([vevent(['UID:1', 'DTSTART:20261201T080000Z', 'DTEND:20261201T200000Z', 'RRULE:FREQ=DAILY;COUNT=5', 'EXDATE:20261202T080000Z', 'RDATE:20261210T080000Z', 'SUMMARY:SBY'])]);
      expect(parse(text).trips.map(({ trip }) => [trip.route, trip.startDate, trip.endDate])).toEqual([['SBY', '2026-12-01', '2026-12-01']]);
    });

    it('a calendar with 2000 dates left out of repeating events is read; one with more is refused before it is parsed', () => {
      expect(readRosterFile(manyExceptionsCalendar(2000), 'LHR').totalEvents).toBe(1);
      expect(() => readRosterFile(manyExceptionsCalendar(2001), 'LHR')).toThrow(expect.objectContaining({ type: 'TOO_MANY_RECURRENCE_DATES', message: ROSTER_MESSAGES.TOO_MANY_RECURRENCE_DATES }));
    });

    it('added dates (RDATE) count too, over every line and event', () => {
      const dates = (from: number) => Array.from({ length: 1000 }, (_, i) => `2027${String(1 + ((from + i) % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`).join(',');
      const event = (uid: string) => vevent([`UID:${uid}`, 'DTSTART;VALUE=DATE:20261201', 'SUMMARY:SBY', `RDATE;VALUE=DATE:${dates(0)}`]);
      expect(() => readRosterFile(calendar([event('1'), event('2')]), 'LHR')).not.toThrow();
      expect(() => readRosterFile(calendar([event('1'), event('2'), vevent(['UID:3', 'DTSTART;VALUE=DATE:20261202', 'SUMMARY:SBY', 'EXDATE;VALUE=DATE:20261203'])]), 'LHR')).toThrow(
        expect.objectContaining({ type: 'TOO_MANY_RECURRENCE_DATES' }),
      );
    });
  });
});
