/**
 * Flight time limitations (issue 55): the one check Find swaps, proposals, the crewing desk and the
 * month view use. The limits are EASA ORO.FTL's, kept as an admin setting (`flight_time_limits`);
 * proto/README.md says where each comes from. Zod-free; the schemas are in flight-times.ts.
 */
import { addDays, numericDate } from './dates';
import {
  DEFAULT_DUTY_ALLOWANCES,
  formatDuration,
  localDate,
  localDay,
  overlap,
  tripDuties,
  zonedMinute,
  type Duty,
  type DutyAllowances,
  type TripTimes,
} from './trip-times';

export interface FlightTimeLimits extends DutyAllowances {
  /** ORO.FTL.235(a): rest before a duty starting at home base, at least the preceding duty and at least this. */
  minRestAtHomeHours: number;
  /** ORO.FTL.235(b): the same away from home base. */
  minRestAwayHours: number;
  /** ORO.FTL.210(a): duty in any 7, 14 and 28 consecutive days. */
  maxDuty7DaysHours: number;
  maxDuty14DaysHours: number;
  maxDuty28DaysHours: number;
  /** ORO.FTL.210(b): block (flight time) of operated sectors in any 28 consecutive days and in a calendar year. */
  maxBlock28DaysHours: number;
  maxBlockYearHours: number;
  /** ORO.FTL.235(d): a rest this long at home base, holding this many local nights, at least once every `recoveryEveryHours`. */
  recoveryRestHours: number;
  recoveryLocalNights: number;
  recoveryEveryHours: number;
}

export const DEFAULT_FLIGHT_TIME_LIMITS: FlightTimeLimits = {
  ...DEFAULT_DUTY_ALLOWANCES,
  minRestAtHomeHours: 12,
  minRestAwayHours: 10,
  maxDuty7DaysHours: 60,
  maxDuty14DaysHours: 110,
  maxDuty28DaysHours: 190,
  maxBlock28DaysHours: 100,
  maxBlockYearHours: 900,
  recoveryRestHours: 36,
  recoveryLocalNights: 2,
  recoveryEveryHours: 168,
};

export type Legal = true | false | 'unknown';
export interface Legality {
  legal: Legal;
  /** One sentence per broken limit (or per trip without times), as the 409 answers say it. */
  reasons: string[];
}

/** ORO.FTL.105: a local night is 8 hours falling between 22:00 and 08:00 local time. */
export const LOCAL_NIGHT = { from: 22 * 60, to: 8 * 60, minutes: 8 * 60 } as const;

/** The sentences, one per limit: the check's reasons and the 409 errors, verbatim. */
export const LEGALITY_MESSAGES = {
  timesUnknown: (flightNo: string, date: string) => `Times are not known for ${flightNo} on ${numericDate(date)}`,
  rest: (flightNo: string, date: string, rest: number, needed: number) =>
    `Rest before ${flightNo} on ${numericDate(date)} would be ${formatDuration(rest)}; at least ${formatDuration(needed)} needed`,
  duty: (days: number, flightNo: string, date: string, total: number, maxHours: number) =>
    `Duty in ${days} days up to ${flightNo} on ${numericDate(date)} would be ${formatDuration(total)}; at most ${maxHours} h allowed`,
  block28: (days: number, flightNo: string, date: string, total: number, maxHours: number) =>
    `Block in ${days} days up to ${flightNo} on ${numericDate(date)} would be ${formatDuration(total)}; at most ${maxHours} h allowed`,
  blockYear: (year: string, flightNo: string, date: string, total: number, maxHours: number) =>
    `Block in ${year} up to ${flightNo} on ${numericDate(date)} would be ${formatDuration(total)}; at most ${maxHours} h allowed`,
  recovery: (hours: number, nights: number, fromFlight: string, fromDate: string, toFlight: string, toDate: string, everyHours: number) =>
    `No ${hours} h rest with ${nights} local nights from ${fromFlight} on ${numericDate(fromDate)} to ${toFlight} on ${numericDate(toDate)}; one needed at least every ${everyHours} h`,
} as const;

/** Rolling windows span longest this many days; a trip further than this from the one checked cannot break a limit with it. */
const HORIZON_DAYS = 28;
const HOUR = 60;

interface Span {
  start: number;
  end: number;
}
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

interface Labelled extends Span {
  flightNo: string;
}

/**
 * The window of `windowMinutes` holding the most of `intervals`, among windows touching `focus`
 * (any window when null). The total is piecewise linear in the window's start, so its maximum is
 * at a start where a window edge meets an interval edge, or at an end of the allowed range.
 */
function busiestWindow(intervals: Labelled[], windowMinutes: number, focus: Span | null): { start: number; total: number } | null {
  // Written with no arrays or objects per candidate: Find swaps asks it four times of every row.
  let bestStart = 0;
  let bestTotal = -1;
  const consider = (start: number) => {
    const end = start + windowMinutes;
    if (focus && !(start < focus.end && focus.start < end)) return;
    let total = 0;
    for (const interval of intervals) {
      if (interval.start < end && interval.end > start) total += Math.min(interval.end, end) - Math.max(interval.start, start);
    }
    if (total > bestTotal) {
      bestStart = start;
      bestTotal = total;
    }
  };
  for (const { start, end } of intervals) {
    consider(start);
    consider(end);
    consider(start - windowMinutes);
    consider(end - windowMinutes);
  }
  if (focus) {
    consider(focus.start - windowMinutes + 1);
    consider(focus.end - 1);
  }
  return bestTotal < 0 ? null : { start: bestStart, total: bestTotal };
}

/** The last interval starting inside [start, end): what names a window in its sentence. */
const lastIn = (intervals: Labelled[], start: number, end: number) => intervals.filter((interval) => interval.start < end && interval.end > start).at(-1);

/** Trips sharing a date with from..to (the bounds worked out once, not per trip: a page checks thousands). */
const nearDates = (trips: readonly TripTimes[], from: string, to: string) => trips.filter((trip) => trip.endDate >= from && trip.startDate <= to);
const nearYear = (year: string) => {
  // The day before the year and the day after: the same two dates for every year.
  const from = `${Number(year) - 1}-12-31`;
  const to = `${Number(year) + 1}-01-01`;
  return (trip: TripTimes) => trip.endDate >= from && trip.startDate <= to;
};

/**
 * Each trip's duties, worked out once per trip (object) and allowances: Find swaps checks a page of
 * offers against one roster, whose trips' duties each check would otherwise read again from their
 * instants, and the offers themselves stay in memory between requests. Trips are taken as values:
 * a changed trip is a new object.
 */
const dutiesKnown = new WeakMap<TripTimes, { allowances: DutyAllowances; duties: Duty[] | null }>();
function dutiesOf(trip: TripTimes, allowances: DutyAllowances): Duty[] | null {
  const known = dutiesKnown.get(trip);
  if (
    known &&
    known.allowances.reportMinutes === allowances.reportMinutes &&
    known.allowances.releaseMinutes === allowances.releaseMinutes &&
    known.allowances.layoverMinHours === allowances.layoverMinHours
  ) {
    return known.duties;
  }
  const duties = tripDuties(trip, allowances);
  dutiesKnown.set(trip, { allowances: { reportMinutes: allowances.reportMinutes, releaseMinutes: allowances.releaseMinutes, layoverMinHours: allowances.layoverMinHours }, duties });
  return duties;
}

/**
 * Local nights are asked of the same rests again and again (Find swaps checks a page of offers
 * against one roster), and counting them walks the days through Intl: remembered, bounded.
 */
const nightsCounted = new Map<string, Map<number, number>>();

/** Local nights wholly inside [start, end): 8 hours of some night's 22:00 to 08:00. */
export function localNights(start: number, end: number, timeZone: string): number {
  let counted = nightsCounted.get(timeZone);
  if (!counted) nightsCounted.set(timeZone, (counted = new Map()));
  // A number for a key (minutes since 1970 stay below 10^8 until the 2160s): building a string was most of a lookup.
  const key = start * 100_000_000 + (end - start);
  const known = counted.get(key);
  if (known !== undefined) return known;
  if (counted.size > 100_000) counted.clear();
  const count = countLocalNights(start, end, timeZone);
  counted.set(key, count);
  return count;
}

function countLocalNights(start: number, end: number, timeZone: string): number {
  let count = 0;
  for (let date = addDays(localDate(start, timeZone), -1); date <= localDate(end, timeZone); date = addDays(date, 1)) {
    const night = { start: zonedMinute(date, LOCAL_NIGHT.from, timeZone), end: zonedMinute(addDays(date, 1), LOCAL_NIGHT.to, timeZone) };
    if (overlap(start, end, night.start, night.end) >= LOCAL_NIGHT.minutes) count += 1;
  }
  return count;
}

/**
 * Whether the pilot may fly `roster`, the trips they would hold (after a swap, say), under
 * `limits`. Duties and rests are counted per duty, never a whole trip as one. `homeBase` (an airport
 * code) decides which rest minimum applies; local dates and nights are in `timeZone`, the base's.
 * With `focusTripId`, only limits the trip takes part in are judged (the roster's other troubles
 * are not the swap's), and only trips within 28 days of it (or in its calendar year, for the
 * yearly block, where unknown times count as none) must have times.
 */
export function checkLegality(
  roster: readonly TripTimes[],
  limits: FlightTimeLimits,
  homeBase: string,
  timeZone: string,
  options: { focusTripId?: string } = {},
): Legality {
  const focusTrip = options.focusTripId === undefined ? undefined : roster.find((trip) => trip.id === options.focusTripId);
  const involved = focusTrip
    ? nearDates(roster, addDays(focusTrip.startDate, -HORIZON_DAYS), addDays(focusTrip.endDate, HORIZON_DAYS))
    : roster;
  const dutiesByTrip = new Map(involved.map((trip) => [trip.id, dutiesOf(trip, limits)]));
  const unknown = involved.filter((trip) => !dutiesByTrip.get(trip.id));
  if (unknown.length > 0) return { legal: 'unknown', reasons: unknown.map((trip) => LEGALITY_MESSAGES.timesUnknown(trip.flightNoStart, trip.startDate)) };

  const byTime = (a: Duty, b: Duty) => a.start - b.start || a.end - b.end;
  const duties: Duty[] = involved.flatMap((trip) => dutiesByTrip.get(trip.id) ?? []).sort(byTime);
  const focusDuties = focusTrip ? duties.filter((duty) => duty.tripId === focusTrip.id) : duties;
  if (focusDuties.length === 0) return { legal: true, reasons: [] };
  const focus: Span | null = focusTrip ? { start: focusDuties[0]!.start, end: Math.max(...focusDuties.map((duty) => duty.end)) } : null;
  const touches = (span: Span) => !focus || overlaps(span, focus) || span.start === focus.end || span.end === focus.start;
  const isFocus = (duty: Duty) => !focusTrip || duty.tripId === focusTrip.id;
  const date = (minute: number) => localDate(minute, timeZone);
  const reasons: string[] = [];

  // ORO.FTL.235(a)(b): the rest before each duty.
  for (let i = 1; i < duties.length; i += 1) {
    const before = duties[i - 1]!;
    const duty = duties[i]!;
    if (!isFocus(before) && !isFocus(duty)) continue;
    const atHome = duty.from === null || duty.from === homeBase;
    const needed = Math.max(before.end - before.start, (atHome ? limits.minRestAtHomeHours : limits.minRestAwayHours) * HOUR);
    const rest = duty.start - before.end;
    if (rest < needed) reasons.push(LEGALITY_MESSAGES.rest(duty.flightNo, date(duty.start), rest, needed));
  }

  // ORO.FTL.210(a)(b): duty and block in any run of consecutive days.
  const dutySpans: Labelled[] = duties;
  const blockSpans: Labelled[] = duties.flatMap((duty) => duty.block);
  const rolling: [Labelled[], number, number, typeof LEGALITY_MESSAGES.duty][] = [
    [dutySpans, 7, limits.maxDuty7DaysHours, LEGALITY_MESSAGES.duty],
    [dutySpans, 14, limits.maxDuty14DaysHours, LEGALITY_MESSAGES.duty],
    [dutySpans, 28, limits.maxDuty28DaysHours, LEGALITY_MESSAGES.duty],
    [blockSpans, 28, limits.maxBlock28DaysHours, LEGALITY_MESSAGES.block28],
  ];
  for (const [spans, days, maxHours, sentence] of rolling) {
    const windowMinutes = days * 24 * HOUR;
    const busiest = busiestWindow(spans, windowMinutes, focus);
    if (!busiest || busiest.total <= maxHours * HOUR) continue;
    const last = lastIn(spans, busiest.start, busiest.start + windowMinutes)!;
    reasons.push(sentence(days, last.flightNo, date(last.start), busiest.total, maxHours));
  }

  // ORO.FTL.210(b)(2): block in a calendar year (local).
  const focusBlock = focusTrip ? focusDuties.flatMap((duty) => duty.block) : blockSpans;
  const years = [...new Set(focusBlock.flatMap((span) => [date(span.start).slice(0, 4), date(Math.max(span.start, span.end - 1)).slice(0, 4)]))].sort();
  for (const year of years) {
    const span = { start: localDay(`${year}-01-01`, timeZone).start, end: localDay(`${Number(year) + 1}-01-01`, timeZone).start };
    // The whole year, beyond the trips near the one checked; a trip without times there counts as no block.
    // Totalled as they come (Find swaps asks this of every row); put in order only to name the last.
    const yearDuties = roster.filter(nearYear(year)).flatMap((trip) => dutiesByTrip.get(trip.id) ?? dutiesOf(trip, limits) ?? []);
    let total = 0;
    for (const duty of yearDuties) for (const block of duty.block) total += overlap(block.start, block.end, span.start, span.end);
    if (total <= limits.maxBlockYearHours * HOUR) continue;
    const yearBlock = yearDuties.sort(byTime).flatMap((duty) => duty.block);
    const last = lastIn(yearBlock, span.start, span.end)!;
    reasons.push(LEGALITY_MESSAGES.blockYear(year, last.flightNo, date(last.start), total, limits.maxBlockYearHours));
  }

  // ORO.FTL.235(d): a recovery rest at home base at least every so often. The time before the first
  // duty and after the last is off (the roster holds every duty the pilot has), so it counts as one.
  const recovered = (before: Duty, after: Duty) =>
    (before.to === null || before.to === homeBase) &&
    after.start - before.end >= limits.recoveryRestHours * HOUR &&
    localNights(before.end, after.start, timeZone) >= limits.recoveryLocalNights;
  let firstAfterRecovery = 0;
  for (let i = 1; i <= duties.length; i += 1) {
    if (i < duties.length && !recovered(duties[i - 1]!, duties[i]!)) continue;
    // duties[firstAfterRecovery .. i-1] lie between two recovery rests.
    const first = duties[firstAfterRecovery]!;
    const last = duties[i - 1]!;
    const between = { start: first.start, end: Math.max(...duties.slice(firstAfterRecovery, i).map((duty) => duty.end)) };
    if (between.end - between.start > limits.recoveryEveryHours * HOUR && touches(between)) {
      reasons.push(
        LEGALITY_MESSAGES.recovery(limits.recoveryRestHours, limits.recoveryLocalNights, first.flightNo, date(first.start), last.flightNo, date(last.start), limits.recoveryEveryHours),
      );
    }
    firstAfterRecovery = i;
  }

  return { legal: reasons.length === 0, reasons };
}

/**
 * A swap seen by one pilot: they give `given` away (null for a trip picked up for nothing) and take
 * `taken`. Judged on their roster as it would be after, for the limits the taken trip takes part in.
 */
export function checkSwap(
  trips: readonly TripTimes[],
  given: Pick<TripTimes, 'id'> | null,
  taken: TripTimes,
  limits: FlightTimeLimits,
  homeBase: string,
  timeZone: string,
): Legality {
  return checkLegality(rosterAfterSwap(trips, given, taken), limits, homeBase, timeZone, { focusTripId: taken.id });
}

export function rosterAfterSwap(trips: readonly TripTimes[], given: Pick<TripTimes, 'id'> | null, taken: TripTimes | null): TripTimes[] {
  const kept = trips.filter((trip) => trip.id !== given?.id && trip.id !== taken?.id);
  return taken ? [...kept, taken] : kept;
}

/** A pilot's month: what `GET /api/pilot/month` answers. */
export interface MonthTotals {
  /** Operated block and duty inside the month (local), of the trips whose times are known. */
  blockMinutes: number;
  dutyMinutes: number;
  /** Days of the month on a trip, and the others. */
  daysAway: number;
  daysOff: number;
  /** Trips in the month without times: their block and duty are not in the totals. */
  tripsWithoutTimes: number;
}

/** The totals of `month` ('YYYY-MM') in `timeZone`, the home base's. */
export function monthTotals(trips: readonly TripTimes[], month: string, timeZone: string, allowances: DutyAllowances = DEFAULT_DUTY_ALLOWANCES): MonthTotals {
  const first = `${month}-01`;
  const next = addDays(`${month}-28`, 4).slice(0, 7);
  const span = { start: localDay(first, timeZone).start, end: localDay(`${next}-01`, timeZone).start };
  const inMonth = trips.filter((trip) => trip.endDate >= first && trip.startDate < `${next}-01`);
  const away = new Set<string>();
  let blockMinutes = 0;
  let dutyMinutes = 0;
  let tripsWithoutTimes = 0;
  for (const trip of inMonth) {
    for (let day = trip.startDate; day <= trip.endDate; day = addDays(day, 1)) if (day.startsWith(month)) away.add(day);
    const duties = tripDuties(trip, allowances);
    if (!duties) {
      tripsWithoutTimes += 1;
      continue;
    }
    for (const duty of duties) {
      dutyMinutes += overlap(duty.start, duty.end, span.start, span.end);
      for (const block of duty.block) blockMinutes += overlap(block.start, block.end, span.start, span.end);
    }
  }
  let days = 0;
  for (let day = first; day.startsWith(month); day = addDays(day, 1)) days += 1;
  return { blockMinutes, dutyMinutes, daysAway: away.size, daysOff: days - away.size, tripsWithoutTimes };
}

/** The same totals with `taken` flown and `given` given away (`?with=&without=`). */
export function monthTotalsAfterSwap(
  trips: readonly TripTimes[],
  month: string,
  timeZone: string,
  swap: { given: Pick<TripTimes, 'id'> | null; taken: TripTimes | null },
  allowances: DutyAllowances = DEFAULT_DUTY_ALLOWANCES,
): MonthTotals {
  return monthTotals(rosterAfterSwap(trips, swap.given, swap.taken), month, timeZone, allowances);
}
