/**
 * A trip's duty times and what they make it worth (issue 55): its duties, block, duty, nights away
 * and landings, and the value line every screen shows. Zod-free, so the web bundle shares it
 * (`@crewswap/proto/browser`); the schemas are in flight-times.ts.
 */
import { addDays, daysBetween } from './dates';

/** One flight of a trip; instants are UTC ISO strings. A positioning sector is flown as a passenger. */
export interface Sector {
  flightNo: string;
  from: string;
  to: string;
  departAt: string;
  arriveAt: string;
  positioning: boolean;
}

/** What a roster tells of a trip's times; null (or no sectors) when it does not. */
export interface DutyTimes {
  /** Check-in, where the roster gives it. */
  reportAt: string | null;
  /** Check-out, where the roster gives it. */
  releaseAt: string | null;
  sectors: Sector[] | null;
}

/** A trip as the limits see it: its times, and what names it in a sentence. */
export interface TripTimes extends DutyTimes {
  id: string;
  flightNoStart: string;
  startDate: string;
  endDate: string;
}

/** What a trip is worth: null where its times are not known (nights come from the dates then). */
export interface TripValue {
  /** Operated sectors only: a positioning flight is duty but not flight time (ORO.FTL.210(b)). */
  blockMinutes: number | null;
  dutyMinutes: number | null;
  nightsAway: number;
  /** Operated sectors, each one landing. */
  landings: number | null;
}

/**
 * How duties are read from sectors when the roster gives no check-in or check-out; admin settings
 * (the `flight_time_limits` setting). The defaults are common long-haul reporting times.
 */
export interface DutyAllowances {
  /** A duty starts this long before its first departure. */
  reportMinutes: number;
  /** A duty ends this long after its last arrival (post-flight duty, ORO.FTL.210(c)). */
  releaseMinutes: number;
  /**
   * A ground gap between two sectors at least this long is a layover, which ends one duty and
   * starts the next. 8 h is the sleep opportunity every rest away from base must hold
   * (ORO.FTL.235(b)): a shorter gap cannot have been a rest, so the crew stayed on duty (a turn
   * round). A longer one was a rest, and the rest limits then judge whether it was long enough.
   */
  layoverMinHours: number;
}

export const DEFAULT_DUTY_ALLOWANCES: DutyAllowances = { reportMinutes: 60, releaseMinutes: 30, layoverMinHours: 8 };

/** A duty: report to release, in whole minutes since the epoch (UTC). */
export interface Duty {
  tripId: string;
  /** The first flight of the duty (the trip's start flight when it has no sectors): what a sentence names. */
  flightNo: string;
  start: number;
  end: number;
  /** Where it starts and ends; null for a duty without sectors, which is taken as at home base. */
  from: string | null;
  to: string | null;
  /** Its operated sectors, as [departure, arrival) minutes. */
  block: { start: number; end: number; flightNo: string }[];
}

const MINUTE_MS = 60_000;
/** Whole minutes since the epoch: the limits are counted in minutes. */
export const toMinute = (instant: string): number => Math.round(Date.parse(instant) / MINUTE_MS);
export const fromMinute = (minute: number): string => new Date(minute * MINUTE_MS).toISOString();

/** A duty that has no sectors to read it from is taken as one only when no layover fits into it. */
const SINGLE_DUTY_MAX_MINUTES = 24 * 60;

const knownSectors = (trip: DutyTimes): Sector[] =>
  [...(trip.sectors ?? [])].sort((a, b) => Date.parse(a.departAt) - Date.parse(b.departAt));

/**
 * The trip's duties in time order, or null when its times are not known. Each duty runs from report
 * (check-in where given, else the first departure less the report allowance) to release (check-out
 * where given, else the last arrival plus the release allowance); a layover separates two duties.
 * The roster's check-in and check-out belong to the trip's first and last duty.
 */
export function tripDuties(trip: DutyTimes & { id: string; flightNoStart: string }, allowances: DutyAllowances = DEFAULT_DUTY_ALLOWANCES): Duty[] | null {
  const sectors = knownSectors(trip);
  const reportAt = trip.reportAt === null ? null : toMinute(trip.reportAt);
  const releaseAt = trip.releaseAt === null ? null : toMinute(trip.releaseAt);
  if (sectors.length === 0) {
    if (reportAt === null || releaseAt === null || !(releaseAt >= reportAt) || releaseAt - reportAt > SINGLE_DUTY_MAX_MINUTES) return null;
    return [{ tripId: trip.id, flightNo: trip.flightNoStart, start: reportAt, end: releaseAt, from: null, to: null, block: [] }];
  }
  const times = sectors.map((sector) => ({ sector, depart: toMinute(sector.departAt), arrive: toMinute(sector.arriveAt) }));
  if (times.some(({ depart, arrive }) => !Number.isFinite(depart) || !Number.isFinite(arrive) || arrive < depart)) return null;

  const groups: (typeof times)[] = [];
  for (const time of times) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (group && last && time.depart - last.arrive < allowances.layoverMinHours * 60) group.push(time);
    else groups.push([time]);
  }
  const duties = groups.map((group): Duty => {
    const first = group[0]!;
    const last = group.at(-1)!;
    return {
      tripId: trip.id,
      flightNo: first.sector.flightNo,
      start: first.depart - allowances.reportMinutes,
      end: last.arrive + allowances.releaseMinutes,
      from: first.sector.from,
      to: last.sector.to,
      block: group.filter(({ sector }) => !sector.positioning).map(({ sector, depart, arrive }) => ({ start: depart, end: arrive, flightNo: sector.flightNo })),
    };
  });
  if (reportAt !== null && Number.isFinite(reportAt)) duties[0]!.start = reportAt;
  if (releaseAt !== null && Number.isFinite(releaseAt)) duties.at(-1)!.end = releaseAt;
  return duties;
}

/** What the trip is worth; `timeZone` is the home base's, where the nights are counted. */
export function tripValue(
  trip: DutyTimes & { id: string; flightNoStart: string; startDate: string; endDate: string },
  timeZone: string,
  allowances: DutyAllowances = DEFAULT_DUTY_ALLOWANCES,
): TripValue {
  const duties = tripDuties(trip, allowances);
  if (duties === null) return { blockMinutes: null, dutyMinutes: null, nightsAway: Math.max(0, daysBetween(trip.startDate, trip.endDate)), landings: null };
  const block = duties.flatMap((duty) => duty.block);
  // Report and release without sectors tell the duty, not the flying: block and landings unknown, not 0.
  const flown = (trip.sectors?.length ?? 0) > 0;
  return {
    blockMinutes: flown ? block.reduce((sum, sector) => sum + sector.end - sector.start, 0) : null,
    dutyMinutes: duties.reduce((sum, duty) => sum + duty.end - duty.start, 0),
    // The home midnights between leaving and coming back.
    nightsAway: Math.max(0, daysBetween(localDate(duties[0]!.start, timeZone), localDate(duties.at(-1)!.end, timeZone))),
    landings: flown ? block.length : null,
  };
}

/** 'H:MM', as block time is written ('16:40'). */
export function formatBlock(minutes: number): string {
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** '9 h 10 min', '12 h', '45 min': how a limit's sentence writes a duration. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(Math.max(0, minutes) / 60);
  const rest = Math.max(0, minutes) % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The value line: '4 days · 3 nights · block 16:40 · 2 sectors'; unknown parts are left out. */
export function formatTripValue(trip: { startDate: string; endDate: string } & Pick<TripValue, 'nightsAway' | 'blockMinutes' | 'landings'>): string {
  const parts = [plural(Math.max(1, daysBetween(trip.startDate, trip.endDate) + 1), 'day')];
  if (trip.nightsAway > 0) parts.push(plural(trip.nightsAway, 'night'));
  if (trip.blockMinutes !== null) parts.push(`block ${formatBlock(trip.blockMinutes)}`);
  if (trip.landings !== null && trip.landings > 0) parts.push(plural(trip.landings, 'sector'));
  return parts.join(' · ');
}

const formats = new Map<string, Intl.DateTimeFormat>();
/**
 * The zone's offset from UTC in minutes, cached per UTC hour: the check asks it thousands of times
 * a page, and Intl takes tens of microseconds an answer (offsets change on the hour in every zone
 * the airline's bases are in).
 */
const offsets = new Map<string, Map<number, number>>();
function offsetAt(minute: number, timeZone: string): number {
  const hour = Math.floor(minute / 60);
  // Per zone, by hour number: building a string key was most of a lookup.
  let inZone = offsets.get(timeZone);
  if (!inZone) offsets.set(timeZone, (inZone = new Map()));
  const known = inZone.get(hour);
  if (known !== undefined) return known;
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(hour * 60 * MINUTE_MS)).map(({ type, value }) => [type, value]));
  const wall = Date.UTC(Number(part.year), Number(part.month) - 1, Number(part.day), Number(part.hour), Number(part.minute)) / MINUTE_MS;
  if (inZone.size > 100_000) inZone.clear();
  inZone.set(hour, wall - hour * 60);
  return wall - hour * 60;
}

/** Dates by day number: writing one through Date was most of what a check cost. */
const datesOfDays = new Map<number, string>();
function wallClock(minute: number, timeZone: string): { date: string; wall: number } {
  const wall = minute + offsetAt(minute, timeZone);
  const day = Math.floor(wall / (24 * 60));
  let date = datesOfDays.get(day);
  if (date === undefined) {
    date = new Date(day * 24 * 60 * MINUTE_MS).toISOString().slice(0, 10);
    if (datesOfDays.size > 100_000) datesOfDays.clear();
    datesOfDays.set(day, date);
  }
  return { date, wall };
}

/** The local date (YYYY-MM-DD) of a minute in a time zone. */
export function localDate(minute: number, timeZone: string): string {
  return wallClock(minute, timeZone).date;
}

/** The minute when the local clock in `timeZone` reads `minuteOfDay` on `date` (the later reading in a DST gap). */
export function zonedMinute(date: string, minuteOfDay: number, timeZone: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) / MINUTE_MS + minuteOfDay;
  let minute = wall;
  // Twice: the offset at the first guess can differ from the offset at the answer near a change.
  for (let i = 0; i < 2; i += 1) minute = wall - (wallClock(minute, timeZone).wall - minute);
  return minute;
}

/** Local midnight starting `date`, and the next, as minutes. */
export function localDay(date: string, timeZone: string): { start: number; end: number } {
  return { start: zonedMinute(date, 0, timeZone), end: zonedMinute(addDays(date, 1), 0, timeZone) };
}

/** Minutes of [start, end) inside [from, to). */
export const overlap = (start: number, end: number, from: number, to: number): number => Math.max(0, Math.min(end, to) - Math.max(start, from));
