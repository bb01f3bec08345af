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
}

export interface Calendar {
  events: CalendarEvent[];
  /** VEVENTs that repeat an earlier one byte for byte (after unfolding). */
  duplicateEvents: number;
  /** Every VEVENT in the file, repeats included. */
  totalEvents: number;
}

const RECURRENCE = /^(RRULE|RDATE|EXDATE|EXRULE)[;:]/i;

/**
 * Reads a calendar file. The structure is checked here, not by node-ical: a lenient parser
 * returns the complete events of a truncated file, and a partial roster must never be imported.
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
  const blocks: string[] = [];
  let current: string[] | null = null;
  let closed = false;
  const kept: string[] = [];
  for (const line of lines.slice(first)) {
    if (closed) {
      if (line.trim() !== '') throw new RosterError('MALFORMED_CALENDAR');
      continue;
    }
    const upper = line.toUpperCase();
    if (upper.startsWith('BEGIN:')) {
      const name = upper.slice(6).trim();
      if (stack.length === 0 && name !== 'VCALENDAR') throw new RosterError('MALFORMED_CALENDAR');
      stack.push(name);
      if (name === 'VEVENT') {
        if (stack.length !== 2) throw new RosterError('MALFORMED_CALENDAR');
        current = [];
      }
    } else if (upper.startsWith('END:')) {
      const name = upper.slice(4).trim();
      if (stack.pop() !== name) throw new RosterError('MALFORMED_CALENDAR');
      if (name === 'VEVENT' && current) {
        blocks.push(current.join('\n'));
        current = null;
      }
      if (stack.length === 0) closed = true;
    } else if (stack.length === 0 && line.trim() !== '') {
      throw new RosterError('MALFORMED_CALENDAR');
    } else if (current && line.trim() !== '') {
      current.push(line);
    }
    kept.push(line);
  }
  if (!closed) throw new RosterError('MALFORMED_CALENDAR');
  if (blocks.length === 0) throw new RosterError('EMPTY_CALENDAR');

  // Exact repeats are dropped here. Every kept event gets a UID of its own, because node-ical keys
  // events by UID and would silently merge two different duties that share one (or have none).
  const seen = new Set<string>();
  let duplicateEvents = 0;
  let index = 0;
  let skipping = false;
  let inEvent = false;
  const rewritten: string[] = [];
  for (const line of kept) {
    const upper = line.toUpperCase();
    if (upper.startsWith('BEGIN:VEVENT')) {
      const block = blocks[index++]!;
      const key = createHash('sha1').update(block).digest('hex');
      skipping = seen.has(key);
      seen.add(key);
      if (skipping) {
        duplicateEvents += 1;
        continue;
      }
      const uid = block.split('\n').find((l) => /^UID[;:]/i.test(l))?.replace(/^[^:]*:/, '') ?? '';
      rewritten.push(line, `UID:${index}~${uid}`);
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
    const event = toEvent(component as ical.VEvent, baseZone);
    if (event) events.push(event);
  }
  events.sort((a, b) => a.start.getTime() - b.start.getTime() || a.end.getTime() - b.end.getTime());
  return { events, duplicateEvents, totalEvents: blocks.length };
}

function toEvent(event: ical.VEvent, baseZone: string): CalendarEvent | null {
  const rawStart = event.start as (Date & { tz?: string; dateOnly?: boolean }) | undefined;
  if (!rawStart || Number.isNaN(rawStart.getTime())) return null;
  const rawEnd = event.end as (Date & { tz?: string; dateOnly?: boolean }) | undefined;
  const allDay = rawStart.dateOnly === true || event.datetype === 'date';
  const uid = String(event.uid ?? '').replace(/^[^~]*~/, '');
  const summary = text(event.summary);
  const description = text(event.description);
  if (allDay) {
    // node-ical builds date-only values at local midnight of this process; read them back locally.
    const startDate = localDate(rawStart);
    let endExclusive = rawEnd && !Number.isNaN(rawEnd.getTime()) ? localDate(rawEnd) : addDays(startDate, 1);
    if (endExclusive <= startDate) endExclusive = addDays(startDate, 1);
    const start = zonedToInstant(startDate, '00:00', baseZone);
    const end = zonedToInstant(endExclusive, '00:00', baseZone);
    return { uid, summary, description, start, end, allDay, startDate, endDate: addDays(endExclusive, -1) };
  }
  const start = rawStart.tz ? rawStart : floating(rawStart, baseZone);
  let end = rawEnd && !Number.isNaN(rawEnd.getTime()) ? (rawEnd.tz ? rawEnd : floating(rawEnd, baseZone)) : start;
  if (end.getTime() < start.getTime()) end = start;
  const startDate = zonedDate(start, baseZone);
  // An event ending exactly at midnight belongs to the day before.
  const endDate = end.getTime() > start.getTime() ? zonedDate(new Date(end.getTime() - 60_000), baseZone) : startDate;
  return { uid, summary, description, start: new Date(start.getTime()), end: new Date(end.getTime()), allDay, startDate, endDate: endDate < startDate ? startDate : endDate };
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

