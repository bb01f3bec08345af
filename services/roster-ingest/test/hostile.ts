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
