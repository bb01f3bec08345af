import { createHash } from 'node:crypto';
import ical from 'node-ical';
import { addDays, ROSTER_MESSAGES, type RosterErrorType } from '@crewswap/proto';

/** A roster the importer refuses as a whole; nothing from it is stored. */
export class RosterError extends Error {
  constructor(
    readonly type: RosterErrorType,
    message: string = ROSTER_MESSAGES[type],
  ) {
    super(message);
  }
}

/** One VEVENT, with its times made absolute and its dates read as the base sees them. */
export interface CalendarEvent {
  uid: string;
  summary: string;
  description: string;
  start: Date;
  end: Date;
  allDay: boolean;
  /** Base-local first and last day the event covers (an all-day DTEND is exclusive). */
  startDate: string;
  endDate: string;
  /** STATUS:CANCELLED: crewing took the duty away, so it is no duty (RFC 5545 3.8.1.11). */
  cancelled: boolean;
}

export interface Calendar {
  events: CalendarEvent[];
  /** VEVENTs that repeat an earlier one byte for byte, or that a later version (higher SEQUENCE) replaces. */
  duplicateEvents: number;
  /** Every VEVENT in the file, repeats included. */
  totalEvents: number;
}

const RECURRENCE = /^(RRULE|RDATE|EXDATE|EXRULE)[;:]/i;

/** A VEVENT as found in the file: every line for spotting exact repeats, and its own properties (not those of a VALARM inside it). */
interface Block {
  text: string;
  /** Indexes into the kept lines of the event's own properties. */
  own: number[];
}

/** What the importer reads from an event's own properties before node-ical does. */
interface EventFacts {
  uid: string;
  sequence: number;
  recurrenceId: string;
  start: string;
  status: string;
  duration: string | null;
  hasEnd: boolean;
  /** The zone whose calendar days a DURATION's days and weeks count (RFC 5545 3.3.6: nominal days); null: the zone node-ical found. */
  dayZone: string | null;
}

/**
 * Reads a calendar file. The structure is checked here, not by node-ical: a lenient parser
 * returns the complete events of a truncated file, and a partial roster must never be imported.
 * Where node-ical reads RFC 5545 wrongly for a roster, the lines are put right before it sees
 * them: property names of any case, times in a VTIMEZONE of the file's own naming, floating
 * times (the base's wall clock), later versions of an event (SEQUENCE, RECURRENCE-ID).
 */
export function readCalendar(raw: string, baseZone: string): Calendar {
  const text = raw.replace(/^\uFEFF/, '');
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first === -1 || lines[first]!.trim().toUpperCase() !== 'BEGIN:VCALENDAR') throw new RosterError('NOT_A_CALENDAR');

  const stack: string[] = [];
  const blocks: Block[] = [];
  let current: { lines: string[]; own: number[] } | null = null;
  let closed = false;
  const kept: string[] = [];
  const zones = new Map<string, Observance[]>();
  let zoneId = '';
  let zone: Observance[] = [];
  let observance: Observance | null = null;
  for (const rawLine of lines.slice(first)) {
    if (closed) {
      if (rawLine.trim() !== '') throw new RosterError('MALFORMED_CALENDAR');
      continue;
    }
    const line = upperNames(rawLine);
    const upper = line.toUpperCase();
    if (upper.startsWith('BEGIN:')) {
      const name = upper.slice(6).trim();
      if (stack.length === 0 && name !== 'VCALENDAR') throw new RosterError('MALFORMED_CALENDAR');
      stack.push(name);
      if (name === 'VEVENT') {
        if (stack.length !== 2) throw new RosterError('MALFORMED_CALENDAR');
        current = { lines: [], own: [] };
      }
      if (name === 'VTIMEZONE' && stack.length === 2) {
        zoneId = '';
        zone = [];
      }
      if ((name === 'STANDARD' || name === 'DAYLIGHT') && stack[1] === 'VTIMEZONE') observance = { start: '', from: 0, to: 0, rule: '', dates: [] };
    } else if (upper.startsWith('END:')) {
      const name = upper.slice(4).trim();
      if (stack.pop() !== name) throw new RosterError('MALFORMED_CALENDAR');
      if (name === 'VEVENT' && current) {
        blocks.push({ text: current.lines.join('\n'), own: current.own });
        current = null;
      }
      if (observance && (name === 'STANDARD' || name === 'DAYLIGHT')) {
        if (observance.start) zone.push(observance);
        observance = null;
      }
      if (name === 'VTIMEZONE' && stack.length === 1 && zoneId && zone.length > 0) zones.set(zoneId, zone);
      if (stack.length === 0) closed = true;
    } else if (stack.length === 0 && line.trim() !== '') {
      throw new RosterError('MALFORMED_CALENDAR');
    } else if (current && line.trim() !== '') {
      current.lines.push(line);
      if (stack.length === 2) current.own.push(kept.length);
    } else if (stack[1] === 'VTIMEZONE') {
      if (stack.length === 2 && /^TZID[;:]/.test(line)) zoneId = unquote(valueOf(line));
      else if (observance) readObservance(observance, line);
    }
    kept.push(line);
  }
  if (!closed) throw new RosterError('MALFORMED_CALENDAR');
  if (blocks.length === 0) throw new RosterError('EMPTY_CALENDAR');

  const facts = blocks.map((block) => readFacts(block, kept, zones, baseZone));
  const dropped = supersededEvents(blocks, facts);

  // Every kept event gets a UID of its own, because node-ical keys events by UID and would
  // silently merge two different duties that share one (or have none).
  let index = 0;
  let skipping = false;
  let inEvent = false;
  const rewritten: string[] = [];
  for (const line of kept) {
    const upper = line.toUpperCase();
    if (upper.startsWith('BEGIN:VEVENT')) {
      const at = index++;
      skipping = dropped.has(at);
      if (skipping) continue;
      rewritten.push(line, `UID:${at}~${facts[at]!.uid}`);
      inEvent = true;
      continue;
    }
    if (skipping) {
      if (upper.startsWith('END:VEVENT')) skipping = false;
      continue;
    }
    if (upper.startsWith('END:VEVENT')) inEvent = false;
    if (inEvent && /^UID[;:]/i.test(line)) continue;
    // A repeating event is read as its first occurrence only, so its rule and the dates it adds or
    // leaves out are not handed on: node-ical would spend most of a hostile file's time on them.
    if (inEvent && RECURRENCE.test(line)) continue;
    rewritten.push(line);
  }

  let parsed: ReturnType<typeof ical.sync.parseICS>;
  try {
    parsed = ical.sync.parseICS(rewritten.join('\r\n'));
  } catch {
    throw new RosterError('MALFORMED_CALENDAR');
  }
  const events: CalendarEvent[] = [];
  for (const component of Object.values(parsed)) {
    if (!component || component.type !== 'VEVENT') continue;
    const at = Number(String(component.uid ?? '').split('~')[0]);
    const event = toEvent(component as ical.VEvent, facts[at], baseZone);
    if (event) events.push(event);
  }
  events.sort((a, b) => a.start.getTime() - b.start.getTime() || a.end.getTime() - b.end.getTime());
  return { events, duplicateEvents: dropped.size, totalEvents: blocks.length };
}

/**
 * Events no duty comes from: exact repeats, and versions that a later one replaces. One event
 * (UID) or one occurrence of it (UID and RECURRENCE-ID) is kept at its highest SEQUENCE (RFC
 * 5545 3.8.7.4); an occurrence that replaces the first of a repeating event replaces that event,
 * which is read as its first occurrence. Different events of one UID and SEQUENCE are all kept:
 * some exports give every duty of a pairing the pairing's UID.
 */
function supersededEvents(blocks: Block[], facts: EventFacts[]): Set<number> {
  const dropped = new Set<number>();
  const seen = new Set<string>();
  blocks.forEach((block, i) => {
    const key = createHash('sha1').update(block.text).digest('hex');
    if (seen.has(key)) dropped.add(i);
    seen.add(key);
  });
  const latest = new Map<string, number>();
  const overrides = new Set<string>();
  facts.forEach((fact, i) => {
    if (!fact.uid || dropped.has(i)) return;
    const key = `${fact.uid}\n${fact.recurrenceId}`;
    latest.set(key, Math.max(latest.get(key) ?? fact.sequence, fact.sequence));
    if (fact.recurrenceId) overrides.add(`${fact.uid}\n${fact.recurrenceId}`);
  });
  facts.forEach((fact, i) => {
    if (!fact.uid) return;
    if (fact.sequence < latest.get(`${fact.uid}\n${fact.recurrenceId}`)!) dropped.add(i);
    if (!fact.recurrenceId && overrides.has(`${fact.uid}\n${fact.start}`)) dropped.add(i);
  });
  return dropped;
}

function readFacts(block: Block, kept: string[], zones: Map<string, Observance[]>, baseZone: string): EventFacts {
  const facts: EventFacts = { uid: '', sequence: 0, recurrenceId: '', start: '', status: '', duration: null, hasEnd: false, dayZone: baseZone };
  for (const at of block.own) {
    const line = kept[at]!;
    const name = /^[A-Z0-9-]+/.exec(line)?.[0];
    if (name === 'DTSTART' || name === 'DTEND' || name === 'RECURRENCE-ID') {
      const time = absoluteTime(line, zones, baseZone);
      kept[at] = time.line;
      if (name === 'DTSTART') {
        facts.start = time.key;
        facts.dayZone = time.dayZone;
      } else if (name === 'DTEND') facts.hasEnd = true;
      else facts.recurrenceId = time.key;
    } else if (name === 'UID') facts.uid = valueOf(line);
    else if (name === 'SEQUENCE') facts.sequence = Number.parseInt(valueOf(line), 10) || 0;
    else if (name === 'STATUS') facts.status = valueOf(line).trim().toUpperCase();
    else if (name === 'DURATION') facts.duration = valueOf(line).trim().toUpperCase();
  }
  return facts;
}

/**
 * A DTSTART, DTEND or RECURRENCE-ID line as node-ical reads it right. UTC, IANA zone names and
 * Windows zone names are left to node-ical. A TZID the file defines by a VTIMEZONE of its own
 * naming is read by that definition, and a floating time or a zone nobody can know as the base's
 * wall clock (node-ical would read both in the first VTIMEZONE of the file, or in this process's
 * own zone); both are written back in UTC.
 */
function absoluteTime(line: string, zones: Map<string, Observance[]>, baseZone: string): { line: string; key: string; dayZone: string | null } {
  const value = valueOf(line).trim();
  const tzid = /;TZID=("[^"]*"|[^;:]*)/.exec(line)?.[1];
  const key = `${tzid ?? ''}:${value}`;
  if (!/^\d{8}T\d{6}$/.test(value)) return { line, key, dayZone: value.endsWith('Z') ? 'UTC' : baseZone };
  if (tzid !== undefined && knownZone(unquote(tzid))) return { line, key, dayZone: null };
  const defined = tzid === undefined ? undefined : zones.get(unquote(tzid));
  const instant = defined ? instantIn(defined, value) : null;
  const at = instant ?? zonedToInstant(`${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`, `${value.slice(9, 11)}:${value.slice(11, 13)}`, baseZone);
  const utc = at.toISOString().replace(/[-:]|\.\d+/g, '');
  const name = /^[A-Z0-9-]+/.exec(line)![0];
  return { line: `${name}:${utc}`, key: `:${utc}`, dayZone: instant ? 'UTC' : baseZone };
}

// node-ical maps Windows zone names (Outlook's "GMT Standard Time") to IANA zones itself.
const WINDOWS_ZONE = /Standard Time( \(.+\))?$|^Russia Time Zone \d+$|^UTC[+-]\d{2}$|^\(UTC/;
const zoneNames = new Map<string, boolean>();
/** Whether a TZID names a zone node-ical reads right: an IANA name or a Windows zone name. */
function knownZone(tzid: string): boolean {
  if (!zoneNames.has(tzid)) zoneNames.set(tzid, WINDOWS_ZONE.test(tzid) || isIana(tzid));
  return zoneNames.get(tzid)!;
}

function isIana(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** One STANDARD or DAYLIGHT observance of a VTIMEZONE. */
interface Observance {
  /** Local date-time of its first onset, yyyymmddThhmmss. */
  start: string;
  from: number;
  to: number;
  rule: string;
  dates: string[];
}

function readObservance(observance: Observance, line: string): void {
  const name = /^[A-Z0-9-]+/.exec(line)?.[0];
  const value = valueOf(line).trim();
  if (name === 'DTSTART') observance.start = value.slice(0, 15);
  else if (name === 'TZOFFSETFROM') observance.from = offsetMinutes(value);
  else if (name === 'TZOFFSETTO') observance.to = offsetMinutes(value);
  else if (name === 'RRULE') observance.rule = value.toUpperCase();
  else if (name === 'RDATE') observance.dates.push(...value.split(',').map((date) => date.trim().slice(0, 15)));
}

function offsetMinutes(value: string): number {
  const match = /^([+-])(\d{2})(\d{2})/.exec(value);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
/** When an observance begins in `year` (local time), from its yearly rule; null when it does not. */
function onsetIn(observance: Observance, year: number): string | null {
  const rule = Object.fromEntries(observance.rule.split(';').map((part) => part.split('=') as [string, string]));
  const time = observance.start.slice(8);
  if (rule.FREQ !== 'YEARLY') return Number(observance.start.slice(0, 4)) === year ? observance.start : null;
  const month = Number(rule.BYMONTH ?? observance.start.slice(4, 6));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  let day = Number(observance.start.slice(6, 8));
  const byDay = /^([+-]?\d*)([A-Z]{2})$/.exec(rule.BYDAY ?? '');
  if (byDay) {
    const weekday = WEEKDAYS.indexOf(byDay[2]!);
    const matching = Array.from({ length: days }, (_, i) => i + 1).filter((d) => new Date(Date.UTC(year, month - 1, d)).getUTCDay() === weekday);
    const monthDays = rule.BYMONTHDAY?.split(',').map(Number);
    const n = Number(byDay[1] || 0);
    const found = monthDays ? matching.find((d) => monthDays.includes(d)) : n < 0 ? matching.at(n) : matching[Math.max(n, 1) - 1];
    if (found === undefined) return null;
    day = found;
  } else if (rule.BYMONTHDAY) day = Number(rule.BYMONTHDAY);
  const onset = `${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}${time}`;
  if (onset < observance.start || (rule.UNTIL && onset > rule.UNTIL.slice(0, 15))) return null;
  return onset;
}

/** The instant a wall time in a VTIMEZONE stands for: the offset of the observance begun last before it. */
function instantIn(zone: Observance[], local: string): Date | null {
  const year = Number(local.slice(0, 4));
  let best: { onset: string; to: number } | null = null;
  for (const observance of zone) {
    const onsets = [onsetIn(observance, year - 1), onsetIn(observance, year), ...observance.dates];
    for (const onset of onsets) if (onset && onset <= local && (!best || onset > best.onset)) best = { onset, to: observance.to };
  }
  const earliest = [...zone].sort((a, b) => a.start.localeCompare(b.start))[0]!;
  const offset = best ? best.to : earliest.from;
  const wall = Date.UTC(year, Number(local.slice(4, 6)) - 1, Number(local.slice(6, 8)), Number(local.slice(9, 11)), Number(local.slice(11, 13)), Number(local.slice(13, 15)));
  return Number.isNaN(wall) ? null : new Date(wall - offset * 60_000);
}

function valueOf(line: string): string {
  // The value starts after the first colon outside a quoted parameter value.
  const match = /^(?:[^":]|"[^"]*")*:/.exec(line);
  return match ? line.slice(match[0].length) : '';
}

function unquote(value: string): string {
  return value.replace(/^"(.*)"$/, '$1');
}

/** Property and parameter names are case-insensitive (RFC 5545 3.1); node-ical knows them only in capitals. */
function upperNames(line: string): string {
  if (/^(BEGIN|END):/i.test(line)) return line.toUpperCase();
  if (/^[A-Z0-9-]+:/.test(line)) return line;
  const head = /^[A-Za-z0-9-]+(?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:,]*)(?:,(?:"[^"]*"|[^";:,]*))*)*(?=:)/.exec(line);
  if (!head) return line;
  const names = head[0].replace(/^[A-Za-z0-9-]+/, (name) => name.toUpperCase()).replace(/;([A-Za-z0-9-]+)=/g, (_, name: string) => `;${name.toUpperCase()}=`);
  return names.replace(/;VALUE=([A-Za-z-]+)/, (_, value: string) => `;VALUE=${value.toUpperCase()}`) + line.slice(head[0].length);
}

function toEvent(event: ical.VEvent, facts: EventFacts | undefined, baseZone: string): CalendarEvent | null {
  const rawStart = event.start as (Date & { tz?: string; dateOnly?: boolean }) | undefined;
  if (!rawStart || Number.isNaN(rawStart.getTime())) return null;
  const rawEnd = event.end as (Date & { tz?: string; dateOnly?: boolean }) | undefined;
  const allDay = rawStart.dateOnly === true || event.datetype === 'date';
  const uid = String(event.uid ?? '').replace(/^[^~]*~/, '');
  const summary = text(event.summary);
  const description = text(event.description);
  const cancelled = facts?.status === 'CANCELLED';
  // node-ical adds a DURATION's days as 24 hours, so across a change of clocks it ends an hour off,
  // and an all-day event a day short; RFC 5545 counts them as calendar days.
  const duration = facts?.duration && !facts.hasEnd ? parseDuration(facts.duration) : null;
  if (allDay) {
    // node-ical builds date-only values at local midnight of this process; read them back locally.
    const startDate = localDate(rawStart);
    let endExclusive = duration ? addDays(startDate, duration.days) : rawEnd && !Number.isNaN(rawEnd.getTime()) ? localDate(rawEnd) : addDays(startDate, 1);
    if (endExclusive <= startDate) endExclusive = addDays(startDate, 1);
    const start = zonedToInstant(startDate, '00:00', baseZone);
    const end = zonedToInstant(endExclusive, '00:00', baseZone);
    return { uid, summary, description, start, end, allDay, startDate, endDate: addDays(endExclusive, -1), cancelled };
  }
  const start = rawStart.tz ? rawStart : floating(rawStart, baseZone);
  const dayZone = facts?.dayZone ?? (rawStart.tz && isIana(rawStart.tz) ? rawStart.tz : 'UTC');
  let end = duration ? addDuration(start, duration, dayZone) : rawEnd && !Number.isNaN(rawEnd.getTime()) ? (rawEnd.tz ? rawEnd : floating(rawEnd, baseZone)) : start;
  if (end.getTime() < start.getTime()) end = start;
  const startDate = zonedDate(start, baseZone);
  // An event ending exactly at midnight belongs to the day before.
  const endDate = end.getTime() > start.getTime() ? zonedDate(new Date(end.getTime() - 60_000), baseZone) : startDate;
  return { uid, summary, description, start: new Date(start.getTime()), end: new Date(end.getTime()), allDay, startDate, endDate: endDate < startDate ? startDate : endDate, cancelled };
}

interface Duration {
  days: number;
  ms: number;
}

/** An RFC 5545 DURATION: weeks and days are calendar days, the rest exact time. Null when unreadable. */
function parseDuration(value: string): Duration | null {
  const match = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(value);
  if (!match || value.endsWith('P') || value.endsWith('T')) return null;
  const sign = match[1] === '-' ? -1 : 1;
  const n = (i: number) => Number(match[i] ?? 0);
  return { days: sign * (n(2) * 7 + n(3)), ms: sign * ((n(4) * 60 + n(5)) * 60 + n(6)) * 1000 };
}

function addDuration(start: Date, duration: Duration, zone: string): Date {
  if (duration.days === 0) return new Date(start.getTime() + duration.ms);
  const parts = Object.fromEntries(formatIn(zone).formatToParts(start).map((part) => [part.type, part.value]));
  const day = zonedToInstant(addDays(`${parts.year}-${parts.month}-${parts.day}`, duration.days), `${parts.hour}:${parts.minute}`, zone);
  return new Date(day.getTime() + (start.getTime() % 60_000) + duration.ms);
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'val' in value) return String((value as { val: unknown }).val);
  return '';
}

/** A time with neither `Z` nor TZID is wall time at the base, whatever zone this process runs in. */
function floating(date: Date, baseZone: string): Date {
  const wallDate = localDate(date);
  const wallTime = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  return zonedToInstant(wallDate, wallTime, baseZone);
}

function localDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatIn(zone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    dateFormats.set(zone, format);
  }
  return format;
}

export function zonedDate(date: Date, zone: string): string {
  const parts = Object.fromEntries(formatIn(zone).formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The instant at which the wall clock in `zone` shows `isoDate` `hhmm`. */
function zonedToInstant(isoDate: string, hhmm: string, zone: string): Date {
  const guess = Date.parse(`${isoDate}T${hhmm}:00Z`);
  const parts = Object.fromEntries(formatIn(zone).formatToParts(new Date(guess)).map((part) => [part.type, part.value]));
  const shown = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
  return new Date(guess - (shown - guess));
}

