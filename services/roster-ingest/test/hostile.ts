/**
 * A calendar shaped like a roster but as large as an upload may be: flight events, each with its
 * own UID and day, repeated until the file reaches `bytes` (or holds `events`).
 */
export function hostileCalendar(options: { bytes?: number; events?: number; padding?: number }): string {
  // A long folded description line: legal, and slow to unfold and unescape.
  const pad = options.padding ? `\r\nX-NOTE:${'x'.repeat(70)}${'\r\n '.concat('y'.repeat(73)).repeat(Math.ceil(options.padding / 76))}` : '';
  const parts = ['BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example Airline//Crew Duty Feed 2.1//EN\r\n'];
  let size = parts[0]!.length;
  const start = Date.UTC(2026, 10, 2);
  for (let i = 0; ; i += 1) {
    if (options.events !== undefined && i >= options.events) break;
    const day = new Date(start + (i % 600) * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    const out = i % 2 === 0;
    const event =
      `BEGIN:VEVENT\r\nUID:${i}-VS${out ? 3 : 4}@duty-feed.example-airline.test\r\nDTSTAMP:20261028T061500Z\r\n` +
      `DTSTART:${day}T${out ? '110500' : '133000'}Z\r\nDTEND:${day}T${out ? '185500' : '202500'}Z\r\n` +
      `SUMMARY:VS${out ? 3 : 4} ${out ? 'LHR 1105 JFK 1355' : 'JFK 0830 LHR 2025'} 351 [CP]\r\nLOCATION:${out ? 'LHR' : 'JFK'}\r\n` +
      `DESCRIPTION:C/I 0935Z LHR\\nVS3 LHR-JFK STD 1105Z STA 1855Z BLK 07:50\\nA/C 351 G-VZAC\r\nCATEGORIES:FLIGHT DUTY${pad}\r\nEND:VEVENT\r\n`;
    if (options.bytes !== undefined && size + event.length + 15 > options.bytes) break;
    parts.push(event);
    size += event.length;
  }
  parts.push('END:VCALENDAR\r\n');
  return parts.join('');
}

const CALENDAR_HEAD = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example Airline//Crew Duty Feed 2.1//EN\r\n';

/**
 * A small calendar (well under 512 KB) of `events` flights, each repeating daily (RRULE); `zoned`
 * times them in named zones, which node-ical resolves event by event: the slowest small file known.
 */
export function repeatingCalendar(options: { events: number; zoned?: boolean }): string {
  const times = options.zoned ? 'DTSTART;TZID=Europe/London:20261102T110500\r\nDTEND;TZID=America/New_York:20261102T135500' : 'DTSTART:20261102T110500Z\r\nDTEND:20261102T185500Z';
  const parts = [CALENDAR_HEAD];
  for (let i = 0; i < options.events; i += 1) {
    parts.push(
      `BEGIN:VEVENT\r\nUID:${i}-VS3@duty-feed.example-airline.test\r\nDTSTAMP:20261028T061500Z\r\n${times}\r\n` +
        'RRULE:FREQ=DAILY;COUNT=1000\r\nSUMMARY:VS3 LHR 1105 JFK 1355 351 [CP]\r\nEND:VEVENT\r\n',
    );
  }
  parts.push('END:VCALENDAR\r\n');
  return parts.join('');
}

/** One flight repeating daily with `exceptions` dates left out of it (EXDATE), on one folded line. */
export function manyExceptionsCalendar(exceptions: number): string {
  const dates = Array.from({ length: exceptions }, (_, i) => new Date(Date.UTC(2026, 10, 3, 11, 5) + i * 86_400_000).toISOString().replace(/[-:]|\.\d+/g, ''));
  const exdate = `EXDATE:${dates.join(',')}`.replace(/(.{74})/g, '$1\r\n ');
  return (
    `${CALENDAR_HEAD}BEGIN:VEVENT\r\nUID:1-VS3@duty-feed.example-airline.test\r\nDTSTAMP:20261028T061500Z\r\n` +
    `DTSTART:20261102T110500Z\r\nDTEND:20261102T185500Z\r\nRRULE:FREQ=DAILY\r\n${exdate}\r\nSUMMARY:VS3 LHR 1105 JFK 1355 351 [CP]\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`
  );
}
