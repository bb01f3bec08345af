import type { ImportTrip } from '@crewswap/proto';
import type { z } from 'zod';
import { readCalendar, type CalendarEvent } from './calendar';

type Trip = z.infer<typeof ImportTrip>;

export interface SkippedEvent {
  summary: string;
  date: string;
  reason: string;
}

export interface ParsedTrip {
  trip: Trip;
  /** How many of the file's events made this record. */
  events: number;
}

export interface ParsedRoster {
  base: string;
  trips: ParsedTrip[];
  skipped: SkippedEvent[];
  totalEvents: number;
  duplicateEvents: number;
}

interface Sector {
  carrier: string;
  number: string | null;
  from: string;
  to: string;
  positioning: boolean;
  event: CalendarEvent;
  /** The ground mode of a leg without a designator (TAXI, RAIL, ...): what names it. */
  mode?: string;
  /** The times written on the leg (departure, then arrival), and the date written before it. */
  clocks: Clock[];
  date: DayMonth | null;
  /** When it departs and arrives (ms), where the roster tells; null where it does not. */
  departAt: number | null;
  arriveAt: number | null;
}

const BASE_ZONES: Record<string, string> = { LHR: 'Europe/London', MAN: 'Europe/London' };
const DEFAULT_ZONE = 'Europe/London';
const OWN_CARRIER = 'VS';

/**
 * Turns a roster calendar into the trips and standby duties to import. Everything is read from
 * the calendar's structure (times, airports, flight designators), never from one export's layout:
 * sectors are ordered by time and chained by airport from the base back to the base.
 * `base` is the pilot's home base when known; otherwise the roster's busiest airport is taken.
 */
export function parseRoster(raw: string, options: { base?: string | null } = {}): ParsedRoster {
  const zone = (options.base && BASE_ZONES[options.base]) || DEFAULT_ZONE;
  const calendar = readCalendar(raw, zone);
  const skipped: SkippedEvent[] = [];
  const standbys: ParsedTrip[] = [];
  const sectors: Sector[] = [];
  const checks = new Map<CalendarEvent, EventChecks>();

  for (const event of calendar.events) {
    if (event.cancelled) {
      skipped.push({ summary: event.summary, date: event.startDate, reason: 'Cancelled' });
      continue;
    }
    const summary = normalize(event.summary);
    const standby = standbyCode(summary);
    if (standby) {
      const trip = { flightNoStart: 'VS000', flightNoEnd: 'VS000', route: standby, startDate: event.startDate, endDate: event.endDate, aircraft: null, icsDescription: describe([event]), reportAt: null, releaseAt: null, sectors: null };
      standbys.push({ trip, events: 1 });
      continue;
    }
    const found = findSectors(event);
    if (found.length === 0) {
      skipped.push({ summary: event.summary, date: event.startDate, reason: skipReason(summary) });
      continue;
    }
    checks.set(event, readDutyTimes(event, found));
    sectors.push(...found);
  }

  const base = options.base ?? guessBase(sectors);
  const trips: ParsedTrip[] = [];
  const skipEach = (chain: Sector[], reason: string) => {
    for (const event of new Set(chain.map((sector) => sector.event))) skipped.push({ summary: event.summary, date: event.startDate, reason });
  };
  interface Open {
    sectors: Sector[];
    at: string;
  }
  const open: Open[] = [];
  for (const sector of sectors) {
    const joined = open.find((trip) => trip.at === sector.from);
    if (joined) {
      joined.sectors.push(sector);
      joined.at = sector.to;
    } else if (sector.from === base) {
      open.push({ sectors: [sector], at: sector.to });
    } else {
      skipEach([sector], `Sector ${sector.from}-${sector.to} does not continue a trip from ${base}`);
      continue;
    }
    const trip = joined ?? open.at(-1)!;
    if (trip.at === base) {
      open.splice(open.indexOf(trip), 1);
      const made = toTrip(trip.sectors, base, checks);
      if (made) trips.push({ trip: made, events: new Set(trip.sectors.map((sector) => sector.event)).size });
      else skipEach(trip.sectors, 'Positioning only, no operated flight');
    }
  }
  for (const trip of open) {
    skipEach(trip.sectors, `Trip does not return to ${base} within the roster`);
  }

  // Earliest first: of two overlapping trips, trips keeps the one that starts first (FORMAT.md D1).
  const all = [...trips, ...standbys].sort((a, b) => a.trip.startDate.localeCompare(b.trip.startDate) || a.trip.endDate.localeCompare(b.trip.endDate));
  return { base, trips: all, skipped, totalEvents: calendar.totalEvents, duplicateEvents: calendar.duplicateEvents };
}

/** Upper case, spaces collapsed, dashes of every kind made '-'. */
function normalize(value: string): string {
  return value.toUpperCase().replace(/[\u2010-\u2015\u2212]/g, '-').replace(/\s+/g, ' ').trim();
}

function standbyCode(summary: string): string | null {
  const first = summary.split(/[ ,;/]/)[0] ?? '';
  if (/^(HSBY|SBY-?H|STH|HSB)$/.test(first)) return 'HSBY';
  if (/^(ASBY|APSBY|SBY-?A|STA)(-[A-Z0-9]+)?$/.test(first)) return 'ASBY';
  if (/^(RSV|RES|RESX|R\d?)$/.test(first)) return 'RSV';
  if (/^(SBY|STBY|[EL]SBY|SBYAD|SBY\w*)(-[A-Z0-9]+)?$/.test(first)) return 'SBY';
  return null;
}

// Optional local or UTC times after an airport: 1000, 10:00, 10:00Z, 0730L, 07:40(+1); NetLine
// writes departure and arrival time both between the airports (LG 8361 LUX 0540 0645 GVA).
const TIME = String.raw`(?:\s+\d{1,2}:?\d{2}Z?(?:\s*\(\+1\))?L?){0,2}`;
// [PAX|DH|POS] <carrier><1-4 digits> <DEP> [time] [-] <ARR>; deadhead also as DH/LG 8361 (NetLine),
// and DEP*ARR for a positioning leg (CrewWebPlus).
const FLIGHT = new RegExp(String.raw`(?:\b(PAX|DH|POS|DHD)(?:\s+|\/))?\b([A-Z]{2})\s?(\d{1,4})\s+([A-Z]{3})\b${TIME}\s*([-\s*])\s*([A-Z]{3})\b`, 'g');
// Positioning on the ground, by any mode: <mode> <DEP> [time] [-] <ARR>.
const GROUND_MODE = String.raw`\b(?:TAXI|CAR|ROAD|BUS|COACH|SHUTTLE|LIMO|TRAIN|RAIL|TRN|SURFACE)\b`;
const GROUND = new RegExp(String.raw`(${GROUND_MODE})\s+([A-Z]{3})\b${TIME}\s*[-\s]\s*([A-Z]{3})\b`, 'g');
const ON_THE_GROUND = new RegExp(GROUND_MODE);
// A leg with a designator is on the ground when the mode is written next to it: TAXI VS9137 JFK-EWR, VS9137 JFK 1100 EWR 1230 (TAXI).
const MODE_BEFORE = new RegExp(String.raw`${GROUND_MODE}\s*$`);
const MODE_AFTER = new RegExp(String.raw`^${TIME}\s*[(\[]?${GROUND_MODE}`);

function sectorsIn(text: string, event: CalendarEvent, positioningEvent: boolean): Sector[] {
  const found: Sector[] = [];
  for (const line of text.split(/\r?\n/)) {
    const upper = normalize(line);
    const legs = new Set<string>();
    for (const match of upper.matchAll(FLIGHT)) {
      const [leg, prefix, carrier, digits, from, star, to] = match;
      if (from === to) continue;
      legs.add(`${from}-${to}`);
      // Some exports give a road or rail leg a designator of its own: it is still positioning.
      const ground = MODE_BEFORE.test(upper.slice(0, match.index)) || MODE_AFTER.test(upper.slice(match.index + leg.length));
      const times = legTimes(leg, from!, upper.slice(match.index + leg.length));
      found.push({ carrier: carrier!, number: digits!, from: from!, to: to!, positioning: positioningEvent || ground || Boolean(prefix) || star === '*' || /\[DH\]/.test(upper), event, clocks: times, date: lineDate(upper), departAt: null, arriveAt: null });
    }
    for (const match of upper.matchAll(GROUND)) {
      const [leg, mode, from, to] = match;
      if (from === to || legs.has(`${from}-${to}`)) continue;
      const times = legTimes(leg, from!, upper.slice(match.index + leg.length));
      found.push({ carrier: '', number: null, from: from!, to: to!, positioning: true, event, mode, clocks: times, date: lineDate(upper), departAt: null, arriveAt: null });
    }
  }
  return found;
}

/** Sectors from SUMMARY; a pairing-style event that lists more of them in DESCRIPTION uses those. */
function findSectors(event: CalendarEvent): Sector[] {
  const summary = normalize(event.summary);
  const positioning = /^(PAX|DH|DHD|POS)\b/.test(summary) || ON_THE_GROUND.test(summary.split(' ')[0]!) || /\[DH\]/.test(summary);
  const fromSummary = sectorsIn(event.summary, event, positioning);
  const fromDescription = sectorsIn(event.description, event, positioning);
  if (fromDescription.length > fromSummary.length && chains(fromDescription)) return fromDescription;
  // A summary that names a leg without its times ('VS75 MAN-MCO') takes them from the description's same leg.
  for (const sector of fromSummary) {
    const same = sector.clocks.length === 0 ? fromDescription.find((other) => other.from === sector.from && other.to === sector.to) : undefined;
    if (same) Object.assign(sector, { clocks: same.clocks, date: same.date });
  }
  return fromSummary;
}

/** Sectors listed in one event only make sense together when each departs where the last arrived. */
function chains(sectors: Sector[]): boolean {
  return sectors.every((sector, i) => i === 0 || sectors[i - 1]!.to === sector.from);
}

function operated(sector: Sector): boolean {
  return !sector.positioning && sector.carrier === OWN_CARRIER && sector.number !== null;
}

function toTrip(sectors: Sector[], base: string, checks: Map<CalendarEvent, EventChecks>): Trip | null {
  const flown = sectors.filter(operated);
  if (flown.length === 0) return null;
  const events = [...new Set(sectors.map((sector) => sector.event))];
  const route: string[] = [];
  for (const sector of sectors) {
    for (const airport of [sector.from, sector.to]) if (airport !== base && !route.includes(airport)) route.push(airport);
  }
  return {
    flightNoStart: flightNo(flown[0]!),
    flightNoEnd: flightNo(flown.at(-1)!),
    route: route.slice(0, 2).join('-'),
    startDate: events.map((event) => event.startDate).sort()[0]!,
    endDate: events.map((event) => event.endDate).sort().at(-1)!,
    aircraft: aircraftOf(events),
    icsDescription: describe(events),
    ...tripTimes(sectors, checks),
  };
}

function flightNo(sector: Sector): string {
  return `${OWN_CARRIER}${String(Number(sector.number)).padStart(3, '0')}`;
}

function aircraftOf(events: CalendarEvent[]): Trip['aircraft'] {
  // Flight designators and times come out first, so only type codes are left to match.
  const text = normalize(events.map((event) => `${event.summary}\n${event.description}`).join('\n'))
    .replace(/\b[A-Z]{2}\s?\d{1,4}\b/g, ' ')
    .replace(/\b\d{1,2}:\d{2}\b/g, ' ');
  const match = /\b(?:A|B)?(33\d|35\d|78\d)\b/.exec(text);
  if (!match) return null;
  const code = match[1]!;
  if (code.startsWith('33')) return 'A330';
  if (code.startsWith('35')) return 'A350';
  return 'B787';
}

function describe(events: CalendarEvent[]): string {
  return events
    .map((event) => [event.summary, event.description].filter(Boolean).join('\n'))
    .join('\n\n')
    .slice(0, 4000);
}

function skipReason(summary: string): string {
  const first = summary.split(/[ ,;]/)[0] ?? '';
  if (/^(OFF|D\/O|DO|DOFF|ROFF|X)$/.test(first)) return 'Day off';
  if (/^(LVE|AL|A\/L|VAC|LEAVE|UL|SICK)$/.test(first)) return 'Leave';
  if (/^(SIM|FFST|LOE|LPC|OPC|FFS)$/.test(first)) return 'Simulator';
  if (/^(GRD|GND|CRM|SEP|TRG|CBT)$/.test(first)) return 'Ground training';
  if (/^(OFC|OFD|OFFICE|ADM|MTG)$/.test(first)) return 'Office duty';
  return 'Not a trip or standby duty';
}

/** The airport most sectors touch: the pilot's base, when the pilot's profile is not known yet. */
function guessBase(sectors: Sector[]): string {
  const counts = new Map<string, number>();
  for (const sector of sectors) for (const airport of [sector.from, sector.to]) counts.set(airport, (counts.get(airport) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'LHR';
}

// Duty times (issue 55). A roster says when a duty starts and ends in one of three ways: the event
// runs from check-in to check-out (its C/I, Report or Check-in line reads the event's own start);
// a check-in written in UTC ('Report 10:05Z'); or an event per sector, from departure to arrival.
// Times written on a leg are UTC where the roster marks them so (11:15Z), or where the duty's own
// check-in and check-out lines read the event's UTC start and end; otherwise they are the stations'
// local clocks, which are read only against a check-in and check-out of the same clock.

/** A time of day as written: minutes after midnight, and whether it is marked UTC. */
interface Clock {
  minute: number;
  utc: boolean;
  /** '(+1)' after it: the next day. */
  nextDay: boolean;
}
interface DayMonth {
  day: number;
  month: number;
}
interface Check {
  at: number;
  clock: Clock;
}
/** An event's check-in and check-out, where it gives them. */
interface EventChecks {
  report: Check | null;
  release: Check | null;
}

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const CLOCK = String.raw`(\d{1,2}):?(\d{2})(Z)?(?:\s*\(\+(1)\))?`;
const DATE = String.raw`(\d{2})(${MONTHS.join('|')})`;
const CHECK_IN = new RegExp(String.raw`(?:C\/I|CHECK-? ?IN|REPORT)\s+(?:${DATE}\s+)?${CLOCK}\b`);
const CHECK_OUT = new RegExp(String.raw`(?:C\/O|CHECK-? ?OUT|OFF DUTY|RELEASE)\s+(?:${DATE}\s+)?${CLOCK}\b`);
const LEG_TIME = new RegExp(String.raw`\b(\d{2}):?(\d{2})(Z)?(?:\s*\(\+(1)\))?`, 'g');
// A time right after the arrival airport (a leg's match ends there); four digits or hh:mm, so an aircraft type (333) is not one.
const TIME_AFTER = new RegExp(String.raw`^\s+(\d{2}):?(\d{2})(Z)?(?:\s*\(\+(1)\))?(?![\d:])`);

const clockOf = (hours: string, minutes: string, z: string | undefined, next: string | undefined): Clock | null => {
  const minute = Number(hours) * 60 + Number(minutes);
  return Number(hours) < 24 && Number(minutes) < 60 ? { minute, utc: z === 'Z', nextDay: next === '1' } : null;
};

/** The times written on a leg: those between its airports, then one right after it. */
function legTimes(leg: string, from: string, after: string): Clock[] {
  const clocks: Clock[] = [];
  // From the departure airport on: the flight number before it is no time.
  for (const match of leg.slice(leg.search(new RegExp(String.raw`\b${from}\b`))).matchAll(LEG_TIME)) {
    const clock = clockOf(match[1]!, match[2]!, match[3], match[4]);
    if (clock) clocks.push(clock);
  }
  const next = TIME_AFTER.exec(after);
  const clock = next && clockOf(next[1]!, next[2]!, next[3], next[4]);
  if (clock) clocks.push(clock);
  return clocks.slice(0, 2);
}

/** '02DEC' at the start of a line: the day a leg is flown. */
function lineDate(line: string): DayMonth | null {
  const match = new RegExp(`^${DATE}\\b`).exec(line.trim());
  return match ? { day: Number(match[1]), month: MONTHS.indexOf(match[2]!) } : null;
}

const minuteOfDay = (ms: number) => Math.floor((((ms % DAY) + DAY) % DAY) / MINUTE);
/** Two clocks can be the same instant in some zone: every zone's offset is a whole quarter of an hour. */
const sameInstantSomewhere = (ms: number, clock: Clock) => (((minuteOfDay(ms) - clock.minute) % 15) + 15) % 15 === 0;

/** The UTC instant of a day and month nearest `near`. */
function onDay(date: DayMonth, minute: number, near: number): number {
  const year = new Date(near).getUTCFullYear();
  const candidates = [year - 1, year, year + 1].map((y) => Date.UTC(y, date.month, date.day) + minute * MINUTE);
  return candidates.sort((a, b) => Math.abs(a - near) - Math.abs(b - near))[0]!;
}

/** The instant `clock` (UTC) reads at or before `anchor` ('before') or at or after it. */
function utcNear(clock: Clock, anchor: number, direction: 'before' | 'after'): number {
  const day = anchor - minuteOfDay(anchor) * MINUTE - (anchor % MINUTE);
  const same = day + clock.minute * MINUTE;
  if (direction === 'before') return same <= anchor ? same : same - DAY;
  return same >= anchor ? same : same + DAY;
}

/** A check-in or check-out line: UTC as written, else the event's own start or end when it can read it. */
function readCheck(text: string, pattern: RegExp, edge: number, direction: 'before' | 'after', allDay: boolean): Check | null {
  const match = pattern.exec(text);
  const clock = match && clockOf(match[3]!, match[4]!, match[5], match[6]);
  if (!match || !clock) return null;
  if (clock.utc) {
    const at = match[1] ? onDay({ day: Number(match[1]), month: MONTHS.indexOf(match[2]!) }, clock.minute, edge) : utcNear(clock, edge, direction);
    return { at, clock };
  }
  return !allDay && sameInstantSomewhere(edge, clock) ? { at: edge, clock } : null;
}

/** An event's check-in and check-out, and the times of the sectors it holds (set on them). */
function readDutyTimes(event: CalendarEvent, sectors: Sector[]): EventChecks {
  const text = normalize(`${event.summary}\n${event.description}`.replace(/\\n/g, '\n'));
  const start = event.start.getTime();
  const end = event.end.getTime();
  const report = readCheck(text, CHECK_IN, start, 'before', event.allDay);
  const release = readCheck(text, CHECK_OUT, end, 'after', event.allDay);
  const duty = report !== null && report.at === start;
  const localLegs = sectors.some((sector) => sector.clocks.some((clock) => !clock.utc));
  // The duty's own lines read the event's UTC clock: its legs' unmarked times are UTC too.
  const utcDuty = duty && release !== null && release.at === end && !report.clock.utc && !release.clock.utc && report.clock.minute === minuteOfDay(start) && release.clock.minute === minuteOfDay(end);

  if (sectors.every((sector) => sector.clocks.length === 2) && (!localLegs || utcDuty)) {
    // Every time is UTC: chained forward from the day written, or from the check-in (or the event's start).
    let anchor = report?.at ?? start;
    for (const sector of sectors) {
      const [dep, arr] = sector.clocks as [Clock, Clock];
      sector.departAt = sector.date ? onDay(sector.date, dep.minute, anchor) : utcNear(dep, anchor, 'after');
      sector.arriveAt = utcNear(arr, sector.departAt, 'after') + (arr.nextDay && arr.minute >= dep.minute ? DAY : 0);
      anchor = sector.arriveAt;
    }
  } else if (sectors.length === 1 && duty && release !== null && release.at === end && sectors[0]!.clocks.length === 2 && !event.allDay) {
    // One leg of a duty: its departure on the check-in's clock, its arrival on the check-out's.
    const [dep, arr] = sectors[0]!.clocks as [Clock, Clock];
    sectors[0]!.departAt = start + ((((dep.minute - report.clock.minute) % 1440) + 1440) % 1440) * MINUTE;
    sectors[0]!.arriveAt = end - ((((release.clock.minute - arr.minute) % 1440) + 1440) % 1440) * MINUTE;
  } else if (sectors.length === 1 && !duty && !event.allDay && end > start) {
    // An event per sector: it runs from departure to arrival.
    sectors[0]!.departAt = start;
    sectors[0]!.arriveAt = end;
  }
  for (const sector of sectors) {
    if (sector.departAt !== null && sector.arriveAt !== null && sector.arriveAt < sector.departAt) sector.departAt = sector.arriveAt = null;
  }
  return { report, release };
}

const instant = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function sectorName(sector: Sector): string {
  if (sector.number === null) return sector.mode ?? 'GROUND';
  if (sector.carrier === OWN_CARRIER) return flightNo(sector);
  return `${sector.carrier}${Number(sector.number)}`;
}

/** A trip's check-in (its first event's), check-out (its last event's) and sectors, where all of them are known. */
function tripTimes(sectors: Sector[], checks: Map<CalendarEvent, EventChecks>): Pick<Trip, 'reportAt' | 'releaseAt' | 'sectors'> {
  const known = sectors.every((sector) => sector.departAt !== null && sector.arriveAt !== null);
  const first = checks.get(sectors[0]!.event)?.report ?? null;
  const last = checks.get(sectors.at(-1)!.event)?.release ?? null;
  const departs = sectors[0]!.departAt;
  const arrives = sectors.at(-1)!.arriveAt;
  return {
    // A check-in after the first departure (or a check-out before the last arrival) is not this trip's.
    reportAt: first && (departs === null || first.at <= departs) ? instant(first.at) : null,
    releaseAt: last && (arrives === null || last.at >= arrives) ? instant(last.at) : null,
    sectors: known
      ? sectors.map((sector) => ({ flightNo: sectorName(sector), from: sector.from, to: sector.to, departAt: instant(sector.departAt!), arriveAt: instant(sector.arriveAt!), positioning: !operated(sector) }))
      : null,
  };
}
