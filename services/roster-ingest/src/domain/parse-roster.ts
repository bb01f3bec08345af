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

  for (const event of calendar.events) {
    if (event.cancelled) {
      skipped.push({ summary: event.summary, date: event.startDate, reason: 'Cancelled' });
      continue;
    }
    const summary = normalize(event.summary);
    const standby = standbyCode(summary);
    if (standby) {
      const trip = { flightNoStart: 'VS000', flightNoEnd: 'VS000', route: standby, startDate: event.startDate, endDate: event.endDate, aircraft: null, icsDescription: describe([event]) };
      standbys.push({ trip, events: 1 });
      continue;
    }
    const found = findSectors(event);
    if (found.length === 0) {
      skipped.push({ summary: event.summary, date: event.startDate, reason: skipReason(summary) });
      continue;
    }
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
      const made = toTrip(trip.sectors, base);
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
const GROUND = new RegExp(String.raw`${GROUND_MODE}\s+([A-Z]{3})\b${TIME}\s*[-\s]\s*([A-Z]{3})\b`, 'g');
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
      found.push({ carrier: carrier!, number: digits!, from: from!, to: to!, positioning: positioningEvent || ground || Boolean(prefix) || star === '*' || /\[DH\]/.test(upper), event });
    }
    for (const match of upper.matchAll(GROUND)) {
      const [, from, to] = match;
      if (from === to || legs.has(`${from}-${to}`)) continue;
      found.push({ carrier: '', number: null, from: from!, to: to!, positioning: true, event });
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
  return fromDescription.length > fromSummary.length && chains(fromDescription) ? fromDescription : fromSummary;
}

/** Sectors listed in one event only make sense together when each departs where the last arrived. */
function chains(sectors: Sector[]): boolean {
  return sectors.every((sector, i) => i === 0 || sectors[i - 1]!.to === sector.from);
}

function operated(sector: Sector): boolean {
  return !sector.positioning && sector.carrier === OWN_CARRIER && sector.number !== null;
}

function toTrip(sectors: Sector[], base: string): Trip | null {
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
