/**
 * RFC 5545 wherever it changes what a duty is: each rule a table of calendars and the times,
 * dates or records the importer must read from them (issue 56). The base is LHR (Europe/London).
 */
import { readCalendar } from '../src/domain/calendar';
import { parseRoster } from '../src/domain/parse-roster';
import { tripKey } from './fixtures';

const calendar = (events: string[], head: string[] = []) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...head, ...events, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');
const standby = (lines: string[]) => vevent(['UID:sby-1', 'SUMMARY:SBY', ...lines]);
const vtimezone = (tzid: string, standard: string, daylight?: string) =>
  [
    'BEGIN:VTIMEZONE',
    `TZID:${tzid}`,
    'BEGIN:STANDARD',
    'DTSTART:19701101T020000',
    ...(daylight ? ['RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU', `TZOFFSETFROM:${daylight}`] : [`TZOFFSETFROM:${standard}`]),
    `TZOFFSETTO:${standard}`,
    'END:STANDARD',
    ...(daylight ? ['BEGIN:DAYLIGHT', 'DTSTART:19700308T020000', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU', `TZOFFSETFROM:${standard}`, `TZOFFSETTO:${daylight}`, 'END:DAYLIGHT'] : []),
    'END:VTIMEZONE',
  ];
const NEW_YORK = (tzid: string) => vtimezone(tzid, '-0500', '-0400');

/** The one event of a calendar as "start/end startDate..endDate", times in UTC. */
function times(text: string): string {
  const { events } = readCalendar(text, 'Europe/London');
  return events.map((event) => `${event.start.toISOString().slice(0, 16)}/${event.end.toISOString().slice(0, 16)} ${event.startDate}..${event.endDate}`).join(' | ');
}
const records = (text: string) => parseRoster(text, { base: 'LHR' }).trips.map(({ trip }) => tripKey(trip));

describe('RFC 5545: every way a time is written is read as the instant it names', () => {
  const at = (start: string, end: string, head: string[] = []) => calendar([standby([start, end])], head);
  it.each([
    ['UTC (Z)', at('DTSTART:20261202T200000Z', 'DTEND:20261203T030000Z'), '2026-12-02T20:00/2026-12-03T03:00 2026-12-02..2026-12-03'],
    ['TZID with its VTIMEZONE', at('DTSTART;TZID=America/New_York:20261202T200000', 'DTEND;TZID=America/New_York:20261203T030000', NEW_YORK('America/New_York')), '2026-12-03T01:00/2026-12-03T08:00 2026-12-03..2026-12-03'],
    ['TZID (IANA name) without a VTIMEZONE', at('DTSTART;TZID=America/New_York:20261202T200000', 'DTEND;TZID=America/New_York:20261203T030000'), '2026-12-03T01:00/2026-12-03T08:00 2026-12-03..2026-12-03'],
    ['TZID quoted', at('DTSTART;TZID="America/New_York":20261202T200000', 'DTEND;TZID="America/New_York":20261203T030000'), '2026-12-03T01:00/2026-12-03T08:00 2026-12-03..2026-12-03'],
    ['TZID of the file\'s own naming, defined by its VTIMEZONE', at('DTSTART;TZID=JFK Local:20261202T200000', 'DTEND;TZID=JFK Local:20261203T030000', NEW_YORK('JFK Local')), '2026-12-03T01:00/2026-12-03T08:00 2026-12-03..2026-12-03'],
    ['TZID with a prefix (/vendor/version/zone), defined by its VTIMEZONE', at('DTSTART;TZID=/example.test/2026_1/America/New_York:20261202T200000', 'DTEND;TZID=/example.test/2026_1/America/New_York:20261203T030000', NEW_YORK('/example.test/2026_1/America/New_York')), '2026-12-03T01:00/2026-12-03T08:00 2026-12-03..2026-12-03'],
    ['TZID of a fixed offset VTIMEZONE (+05:30)', at('DTSTART;TZID=Crew Local:20261202T200000', 'DTEND;TZID=Crew Local:20261203T030000', vtimezone('Crew Local', '+0530')), '2026-12-02T14:30/2026-12-02T21:30 2026-12-02..2026-12-02'],
    ['the VTIMEZONE after the events that use it', calendar([standby(['DTSTART;TZID=JFK Local:20261202T200000', 'DTEND;TZID=JFK Local:20261203T030000']), ...NEW_YORK('JFK Local')]), '2026-12-03T01:00/2026-12-03T08:00 2026-12-03..2026-12-03'],
    ['Windows zone name "Eastern Standard Time"', at('DTSTART;TZID=Eastern Standard Time:20261202T200000', 'DTEND;TZID=Eastern Standard Time:20261203T030000'), '2026-12-03T01:00/2026-12-03T08:00 2026-12-03..2026-12-03'],
    ['Windows zone name "GMT Standard Time" in summer', at('DTSTART;TZID=GMT Standard Time:20260615T234500', 'DTEND;TZID=GMT Standard Time:20260616T003000'), '2026-06-15T22:45/2026-06-15T23:30 2026-06-15..2026-06-16'],
    ['floating: the base\'s wall clock (summer time)', at('DTSTART:20260615T233000', 'DTEND:20260616T070000'), '2026-06-15T22:30/2026-06-16T06:00 2026-06-15..2026-06-16'],
    ['floating in a file with a VTIMEZONE: still the base\'s wall clock', at('DTSTART:20261202T233000', 'DTEND:20261203T070000', NEW_YORK('America/New_York')), '2026-12-02T23:30/2026-12-03T07:00 2026-12-02..2026-12-03'],
    ['a TZID nobody knows and no VTIMEZONE: the base\'s wall clock', at('DTSTART;TZID=Crew Local:20260615T233000', 'DTEND;TZID=Crew Local:20260616T070000'), '2026-06-15T22:30/2026-06-16T06:00 2026-06-15..2026-06-16'],
    ['DATE values: DTEND exclusive', at('DTSTART;VALUE=DATE:20261205', 'DTEND;VALUE=DATE:20261207'), '2026-12-05T00:00/2026-12-07T00:00 2026-12-05..2026-12-06'],
    ['DATE values without VALUE=DATE', at('DTSTART:20261205', 'DTEND:20261207'), '2026-12-05T00:00/2026-12-07T00:00 2026-12-05..2026-12-06'],
    ['DATE without DTEND: one day', at('DTSTART;VALUE=DATE:20261205', 'X-NOTE:none'), '2026-12-05T00:00/2026-12-06T00:00 2026-12-05..2026-12-05'],
    ['property and parameter names in lower case', calendar(['begin:vevent\r\nuid:1\r\nsummary:SBY\r\ndtstart;tzid=America/New_York:20261202T200000\r\ndtend;value=date-time:20261203T030000Z\r\nend:vevent']), '2026-12-03T01:00/2026-12-03T03:00 2026-12-03..2026-12-03'],
  ])('%s', (_, text, want) => {
    expect(times(text)).toBe(want);
  });
});

describe('RFC 5545: DURATION instead of DTEND, its days calendar days', () => {
  it.each([
    ['hours and minutes', ['DTSTART:20261203T010000Z', 'DURATION:PT7H30M'], '2026-12-03T01:00/2026-12-03T08:30 2026-12-03..2026-12-03'],
    ['before DTSTART', ['DURATION:PT12H', 'DTSTART:20261203T080000Z'], '2026-12-03T08:00/2026-12-03T20:00 2026-12-03..2026-12-03'],
    ['a day and hours', ['DTSTART:20261203T010000Z', 'DURATION:P1DT2H'], '2026-12-03T01:00/2026-12-04T03:00 2026-12-03..2026-12-04'],
    ['a day across the clocks going back keeps the wall time', ['DTSTART;TZID=Europe/London:20261024T120000', 'DURATION:P1D'], '2026-10-24T11:00/2026-10-25T12:00 2026-10-24..2026-10-25'],
    ['all-day, two days', ['DTSTART;VALUE=DATE:20261205', 'DURATION:P2D'], '2026-12-05T00:00/2026-12-07T00:00 2026-12-05..2026-12-06'],
    ['all-day, a week', ['DTSTART;VALUE=DATE:20261205', 'DURATION:P1W'], '2026-12-05T00:00/2026-12-12T00:00 2026-12-05..2026-12-11'],
    ['all-day, two days across the clocks going back', ['DTSTART;VALUE=DATE:20261024', 'DURATION:P2D'], '2026-10-23T23:00/2026-10-26T00:00 2026-10-24..2026-10-25'],
  ])('%s', (_, lines, want) => {
    expect(times(calendar([standby(lines)]))).toBe(want);
  });
});

describe("RFC 5545: an event's STATUS, versions, repeats, nested components and order", () => {
  const out = ['UID:vs1', 'DTSTART:20261201T100000Z', 'DTEND:20261201T180000Z', 'SUMMARY:VS1 LHR-JFK 351'];
  const back = (day: string, extra: string[] = []) => ['UID:vs2', `DTSTART:202612${day}T010000Z`, `DTEND:202612${day}T080000Z`, 'SUMMARY:VS2 JFK-LHR 351', ...extra];
  it.each([
    ['STATUS:CANCELLED is no duty', [vevent(out), vevent(back('03')), vevent(['UID:s', 'DTSTART:20261210T080000Z', 'DTEND:20261210T200000Z', 'SUMMARY:SBY', 'STATUS:CANCELLED'])], ['VS001 VS002 JFK 2026-12-01 2026-12-03 A350']],
    ['STATUS:CONFIRMED and TENTATIVE are duties', [vevent([...out, 'STATUS:CONFIRMED']), vevent(back('03', ['STATUS:TENTATIVE']))], ['VS001 VS002 JFK 2026-12-01 2026-12-03 A350']],
    ['the highest SEQUENCE of a UID wins', [vevent(out), vevent(back('03', ['SEQUENCE:0'])), vevent(back('04', ['SEQUENCE:2']))], ['VS001 VS002 JFK 2026-12-01 2026-12-04 A350']],
    ['the highest SEQUENCE wins whatever the order', [vevent(back('04', ['SEQUENCE:2'])), vevent(out), vevent(back('03', ['SEQUENCE:1']))], ['VS001 VS002 JFK 2026-12-01 2026-12-04 A350']],
    ['a later version that cancels the duty', [vevent(out), vevent(back('03')), vevent(['UID:s', 'SEQUENCE:0', 'DTSTART:20261210T080000Z', 'DTEND:20261210T200000Z', 'SUMMARY:SBY']), vevent(['UID:s', 'SEQUENCE:1', 'STATUS:CANCELLED', 'DTSTART:20261210T080000Z', 'DTEND:20261210T200000Z', 'SUMMARY:SBY'])], ['VS001 VS002 JFK 2026-12-01 2026-12-03 A350']],
    ['an exact duplicate counts once', [vevent(out), vevent(out), vevent(back('03'))], ['VS001 VS002 JFK 2026-12-01 2026-12-03 A350']],
    ['a RECURRENCE-ID version of the first occurrence replaces it', [vevent(['UID:s', 'DTSTART:20261210T080000Z', 'DTEND:20261210T200000Z', 'RRULE:FREQ=DAILY;COUNT=2', 'SUMMARY:SBY']), vevent(['UID:s', 'RECURRENCE-ID:20261210T080000Z', 'DTSTART:20261211T080000Z', 'DTEND:20261211T200000Z', 'SUMMARY:RSV'])], ['VS000 VS000 RSV 2026-12-11 2026-12-11 -']],
    ['a VALARM inside an event neither breaks it nor adds an event, before or after its properties', [vevent(['UID:vs1', 'BEGIN:VALARM', 'UID:alarm-1', 'ACTION:DISPLAY', 'SUMMARY:VS9 LHR-BOS', 'DESCRIPTION:Report', 'TRIGGER:-PT2H', 'END:VALARM', ...out.slice(1)]), vevent([...back('03'), 'BEGIN:VALARM', 'ACTION:DISPLAY', 'DESCRIPTION:SBY', 'TRIGGER;RELATED=START:-PT1H', 'DURATION:PT15M', 'REPEAT:2', 'END:VALARM'])], ['VS001 VS002 JFK 2026-12-01 2026-12-03 A350']],
    ['properties in any order, components in any order', [vevent([...back('03')].reverse()), ...vtimezone('Crew Local', '+0000'), vevent([...out].reverse())], ['VS001 VS002 JFK 2026-12-01 2026-12-03 A350']],
    ['folded lines and LF line ends', [vevent(['UID:vs1', 'DTSTART:20261201T10', ' 0000Z', 'DTEND:20261201T180000Z', 'SUMMARY:VS1 LH', '\tR-JFK 351']).replace(/\r\n/g, '\n'), vevent(back('03')).replace(/\r\n/g, '\n')], ['VS001 VS002 JFK 2026-12-01 2026-12-03 A350']],
  ])('%s', (_, events, want) => {
    expect(records(calendar(events))).toEqual(want);
  });

  it('a replaced version and a repeat are counted among the events no record comes from', () => {
    const parsed = parseRoster(calendar([vevent(out), vevent(out), vevent(back('03', ['SEQUENCE:0'])), vevent(back('04', ['SEQUENCE:1']))]), { base: 'LHR' });
    expect({ total: parsed.totalEvents, repeated: parsed.duplicateEvents, used: parsed.trips[0]!.events }).toEqual({ total: 4, repeated: 2, used: 2 });
  });

  it('a cancelled duty is listed as skipped, with the reason', () => {
    const parsed = parseRoster(calendar([vevent(['UID:s', 'DTSTART:20261210T080000Z', 'DTEND:20261210T200000Z', 'SUMMARY:SBY', 'STATUS:CANCELLED'])]), { base: 'LHR' });
    expect(parsed.skipped).toEqual([{ summary: 'SBY', date: '2026-12-10', reason: 'Cancelled' }]);
  });
});
