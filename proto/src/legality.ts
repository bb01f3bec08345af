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
const byTime = (a: Span, b: Span) => a.start - b.start || a.end - b.end;

interface Labelled extends Span {
  flightNo: string;
}

/**
 * The intervals' starts and ends, each in order with running sums, so that the minutes of them
 * before an instant are found without a pass over them all: Find swaps totals hundreds of windows
 * per row. Null when an interval ends before it starts (a check-in given after its duty's
 * check-out can make one), which the sums would count wrongly.
 */
interface Cumulative {
  starts: number[];
  startSums: number[];
  ends: number[];
  endSums: number[];
  /** The minutes before each interval's start and before its end, in the intervals' order: the same for every window. */
  toStart: number[];
  toEnd: number[];
}

const ascending = (a: number, b: number) => a - b;

function cumulative(intervals: readonly Span[]): Cumulative | null {
  const starts: number[] = [];
  const ends: number[] = [];
  let sorted = true;
  for (const { start, end } of intervals) {
    if (end < start) return null;
    if (starts.length > 0 && (start < starts.at(-1)! || end < ends.at(-1)!)) sorted = false;
    starts.push(start);
    ends.push(end);
  }
  // Usually in order already: duties follow one another.
  if (!sorted) {
    starts.sort(ascending);
    ends.sort(ascending);
  }
  const sums: Cumulative = { starts, startSums: runningSums(starts), ends, endSums: runningSums(ends), toStart: [], toEnd: [] };
  const atStart = new MinutesBefore(sums);
  const atEnd = new MinutesBefore(sums);
  for (const { start, end } of intervals) {
    sums.toStart.push(atStart.at(start));
    sums.toEnd.push(atEnd.at(end));
  }
  return sums;
}

function runningSums(values: readonly number[]): number[] {
  const sums = [0];
  for (let i = 0; i < values.length; i += 1) sums.push(sums[i]! + values[i]!);
  return sums;
}

/** How many of `sorted` are below `x`. */
function countBelow(sorted: readonly number[], x: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < x) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Minutes of the intervals before an instant: each started one counts from its start, less what
 * of it is past its end. Asked of instants in order, it searches once and then walks on from there
 * (windows near the trip checked touch few of the roster's duties).
 */
class MinutesBefore {
  private started = 0;
  private ended = 0;
  private last = Infinity;
  constructor(private readonly sums: Cumulative) {}

  at(x: number): number {
    const { starts, startSums, ends, endSums } = this.sums;
    if (x < this.last) {
      this.started = countBelow(starts, x);
      this.ended = countBelow(ends, x);
    }
    this.last = x;
    while (this.started < starts.length && starts[this.started]! < x) this.started += 1;
    while (this.ended < ends.length && ends[this.ended]! < x) this.ended += 1;
    return this.started * x - startSums[this.started]! - (this.ended * x - endSums[this.ended]!);
  }
}

/** Minutes of `intervals` inside [start, end), interval by interval. */
function minutesWithin(intervals: readonly Span[], start: number, end: number): number {
  let total = 0;
  for (const interval of intervals) {
    if (interval.start < end && interval.end > start) total += Math.min(interval.end, end) - Math.max(interval.start, start);
  }
  return total;
}

interface Window {
  start: number;
  total: number;
}

/** Whether the window starting at `start` touches `focus` (any window does when null). */
const touching = (start: number, windowMinutes: number, focus: Span | null) => !focus || (start < focus.end && focus.start < start + windowMinutes);

/** Keeps the window starting at `start` if it holds more than the best so far. */
function consider(best: Window, start: number, total: number): void {
  if (total > best.total) {
    best.start = start;
    best.total = total;
  }
}

/**
 * The window of `windowMinutes` holding the most of `intervals`, among windows touching `focus`
 * (any window when null). The total is piecewise linear in the window's start, so its maximum is
 * at a start where a window edge meets an interval edge, or at an end of the allowed range.
 * Of equal totals the first start tried wins: it decides which flight the sentence names.
 */
function busiestWindow(intervals: readonly Labelled[], sums: Cumulative | null, windowMinutes: number, focus: Span | null): Window | null {
  const best: Window = { start: 0, total: -1 };
  const w = windowMinutes;
  if (sums) {
    // Each start tried is an interval's start or end, or a window before one; the minutes before
    // each of the four other window edges are asked in order (intervals come in time order), one walk each.
    const { toStart, toEnd } = sums;
    const beforeStart = new MinutesBefore(sums);
    const beforeEnd = new MinutesBefore(sums);
    const afterStart = new MinutesBefore(sums);
    const afterEnd = new MinutesBefore(sums);
    for (let i = 0; i < intervals.length; i += 1) {
      const { start, end } = intervals[i]!;
      if (touching(start, w, focus)) consider(best, start, afterStart.at(start + w) - toStart[i]!);
      if (touching(end, w, focus)) consider(best, end, afterEnd.at(end + w) - toEnd[i]!);
      if (touching(start - w, w, focus)) consider(best, start - w, toStart[i]! - beforeStart.at(start - w));
      if (touching(end - w, w, focus)) consider(best, end - w, toEnd[i]! - beforeEnd.at(end - w));
    }
  } else {
    for (const { start, end } of intervals) {
      for (const from of [start, end, start - w, end - w]) if (touching(from, w, focus)) consider(best, from, minutesWithin(intervals, from, from + w));
    }
  }
  if (focus) {
    for (const from of [focus.start - w + 1, focus.end - 1]) {
      if (!touching(from, w, focus)) continue;
      if (!sums) consider(best, from, minutesWithin(intervals, from, from + w));
      else {
        const before = new MinutesBefore(sums);
        const toStart = before.at(from);
        consider(best, from, before.at(from + w) - toStart);
      }
    }
  }
  return best.total < 0 ? null : best;
}

/** The last interval starting inside [start, end): what names a window in its sentence. */
function lastIn(intervals: readonly Labelled[], start: number, end: number): Labelled | undefined {
  for (let i = intervals.length - 1; i >= 0; i -= 1) {
    const interval = intervals[i]!;
    if (interval.start < end && interval.end > start) return interval;
  }
  return undefined;
}

/** Dates `days` away, remembered: the same few trips' dates are shifted on every check. */
function shiftedBy(days: number): (date: string) => string {
  const known = new Map<string, string>();
  return (date) => {
    let shifted = known.get(date);
    if (shifted === undefined) {
      if (known.size > 10_000) known.clear();
      shifted = addDays(date, days);
      known.set(date, shifted);
    }
    return shifted;
  };
}
const horizonBefore = shiftedBy(-HORIZON_DAYS);
const horizonAfter = shiftedBy(HORIZON_DAYS);

/** Trips sharing a date with the 28 days either side of `trip`'s: the ones a check of it involves. */
function nearTrip(trip: TripTimes): (other: TripTimes) => boolean {
  const from = horizonBefore(trip.startDate);
  const to = horizonAfter(trip.endDate);
  return (other) => other.endDate >= from && other.startDate <= to;
}
const nearYear = (year: string) => {
  // The day before the year and the day after: the same two dates for every year.
  const from = `${Number(year) - 1}-12-31`;
  const to = `${Number(year) + 1}-01-01`;
  return (trip: TripTimes) => trip.endDate >= from && trip.startDate <= to;
};

/** A local calendar year as minutes, per zone: worked out through Intl, and asked on every check. */
const yearsKnown = new Map<string, Span>();
function localYear(year: string, timeZone: string): Span {
  const key = `${timeZone} ${year}`;
  let span = yearsKnown.get(key);
  if (!span) {
    if (yearsKnown.size > 10_000) yearsKnown.clear();
    span = { start: localDay(`${year}-01-01`, timeZone).start, end: localDay(`${Number(year) + 1}-01-01`, timeZone).start };
    yearsKnown.set(key, span);
  }
  return span;
}

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
  const involved = focusTrip ? roster.filter(nearTrip(focusTrip)) : roster;
  // By id: a roster holding one trip twice counts the later one's duties for both.
  const dutiesByTrip = new Map(involved.map((trip) => [trip.id, dutiesOf(trip, limits)]));
  const unknown = involved.filter((trip) => !dutiesByTrip.get(trip.id));
  if (unknown.length > 0) return timesUnknown(unknown);
  const duties: Duty[] = involved.flatMap((trip) => dutiesByTrip.get(trip.id) ?? []).sort(byTime);
  const yearDuties = (year: string) => roster.filter(nearYear(year)).flatMap((trip) => dutiesByTrip.get(trip.id) ?? dutiesOf(trip, limits) ?? []);
  return judge(duties, focusTrip?.id, { duties: yearDuties, blockWithin: (year, span) => blockWithin(yearDuties(year), span) }, limits, homeBase, timeZone);
}

/**
 * The trips sharing a date with a calendar year, for the yearly block: the whole year, beyond the
 * trips near the one checked, where a trip without times counts as no block.
 */
interface YearTrips {
  /** Their block inside `span`, the year's. */
  blockWithin(year: string, span: Span): number;
  /** Their duties, in roster order. */
  duties(year: string): Duty[];
}

function blockWithin(duties: readonly Duty[], span: Span): number {
  let total = 0;
  for (const duty of duties) for (const block of duty.block) total += overlap(block.start, block.end, span.start, span.end);
  return total;
}

/** Each trip's 'Times are not known' sentence, once per trip object: a roster without times says it on every check. */
const unknownSentences = new WeakMap<TripTimes, string>();
function timesUnknown(trips: readonly TripTimes[]): Legality {
  const reasons: string[] = [];
  for (const trip of trips) {
    let sentence = unknownSentences.get(trip);
    if (sentence === undefined) unknownSentences.set(trip, (sentence = LEGALITY_MESSAGES.timesUnknown(trip.flightNoStart, trip.startDate)));
    reasons.push(sentence);
  }
  return { legal: 'unknown', reasons };
}

/**
 * The limits, judged on `duties` (those of the trips involved, in time order, ties in roster
 * order). `inYear` tells of the trips in a calendar year.
 */
function judge(
  duties: readonly Duty[],
  focusTripId: string | undefined,
  inYear: YearTrips,
  limits: FlightTimeLimits,
  homeBase: string,
  timeZone: string,
): Legality {
  const focusDuties = focusTripId === undefined ? duties : duties.filter((duty) => duty.tripId === focusTripId);
  if (focusDuties.length === 0) return { legal: true, reasons: [] };
  let focus: Span | null = null;
  if (focusTripId !== undefined) {
    focus = { start: focusDuties[0]!.start, end: focusDuties[0]!.end };
    for (const duty of focusDuties) focus.end = Math.max(focus.end, duty.end);
  }
  // No named closures here: the service runs through tsx, which names each one as it is made, every call.
  const reasons: string[] = [];

  // ORO.FTL.235(a)(b): the rest before each duty.
  for (let i = 1; i < duties.length; i += 1) {
    const before = duties[i - 1]!;
    const duty = duties[i]!;
    if (focusTripId !== undefined && before.tripId !== focusTripId && duty.tripId !== focusTripId) continue;
    const atHome = duty.from === null || duty.from === homeBase;
    const needed = Math.max(before.end - before.start, (atHome ? limits.minRestAtHomeHours : limits.minRestAwayHours) * HOUR);
    const rest = duty.start - before.end;
    if (rest < needed) reasons.push(LEGALITY_MESSAGES.rest(duty.flightNo, localDate(duty.start, timeZone), rest, needed));
  }

  // ORO.FTL.210(a)(b): duty and block in any run of consecutive days.
  const dutySpans: readonly Labelled[] = duties;
  const blockSpans: Labelled[] = [];
  for (const duty of duties) for (const block of duty.block) blockSpans.push(block);
  const dutySums = cumulative(dutySpans);
  const blockSums = cumulative(blockSpans);
  const rolling: [readonly Labelled[], Cumulative | null, number, number, typeof LEGALITY_MESSAGES.duty][] = [
    [dutySpans, dutySums, 7, limits.maxDuty7DaysHours, LEGALITY_MESSAGES.duty],
    [dutySpans, dutySums, 14, limits.maxDuty14DaysHours, LEGALITY_MESSAGES.duty],
    [dutySpans, dutySums, 28, limits.maxDuty28DaysHours, LEGALITY_MESSAGES.duty],
    [blockSpans, blockSums, 28, limits.maxBlock28DaysHours, LEGALITY_MESSAGES.block28],
  ];
  for (const [spans, sums, days, maxHours, sentence] of rolling) {
    const windowMinutes = days * 24 * HOUR;
    const busiest = busiestWindow(spans, sums, windowMinutes, focus);
    if (!busiest || busiest.total <= maxHours * HOUR) continue;
    const last = lastIn(spans, busiest.start, busiest.start + windowMinutes)!;
    reasons.push(sentence(days, last.flightNo, localDate(last.start, timeZone), busiest.total, maxHours));
  }

  // ORO.FTL.210(b)(2): block in a calendar year (local).
  const years: string[] = [];
  for (const duty of focusDuties) {
    for (const span of duty.block) {
      for (const minute of [span.start, Math.max(span.start, span.end - 1)]) {
        const year = localDate(minute, timeZone).slice(0, 4);
        if (!years.includes(year)) years.push(year);
      }
    }
  }
  years.sort();
  for (const year of years) {
    const span = localYear(year, timeZone);
    const total = inYear.blockWithin(year, span);
    if (total <= limits.maxBlockYearHours * HOUR) continue;
    // Put in order only to name the last.
    const yearBlock = inYear.duties(year).sort(byTime).flatMap((duty) => duty.block);
    const last = lastIn(yearBlock, span.start, span.end)!;
    reasons.push(LEGALITY_MESSAGES.blockYear(year, last.flightNo, localDate(last.start, timeZone), total, limits.maxBlockYearHours));
  }

  // ORO.FTL.235(d): a recovery rest at home base at least every so often. The time before the first
  // duty and after the last is off (the roster holds every duty the pilot has), so it counts as one.
  let firstAfterRecovery = 0;
  // The latest release since the last recovery rest: a duty can end after a later one.
  let latestEnd = -Infinity;
  for (let i = 1; i <= duties.length; i += 1) {
    latestEnd = Math.max(latestEnd, duties[i - 1]!.end);
    if (i < duties.length && !recovered(duties[i - 1]!, duties[i]!, limits, homeBase, timeZone)) continue;
    // duties[firstAfterRecovery .. i-1] lie between two recovery rests.
    const first = duties[firstAfterRecovery]!;
    const last = duties[i - 1]!;
    const between = { start: first.start, end: latestEnd };
    const touches = !focus || overlaps(between, focus) || between.start === focus.end || between.end === focus.start;
    if (between.end - between.start > limits.recoveryEveryHours * HOUR && touches) {
      reasons.push(
        LEGALITY_MESSAGES.recovery(
          limits.recoveryRestHours,
          limits.recoveryLocalNights,
          first.flightNo,
          localDate(first.start, timeZone),
          last.flightNo,
          localDate(last.start, timeZone),
          limits.recoveryEveryHours,
        ),
      );
    }
    firstAfterRecovery = i;
    latestEnd = -Infinity;
  }

  return { legal: reasons.length === 0, reasons };
}

/** Whether the time between two duties is a recovery rest (ORO.FTL.235(d)). */
function recovered(before: Duty, after: Duty, limits: FlightTimeLimits, homeBase: string, timeZone: string): boolean {
  return (
    (before.to === null || before.to === homeBase) &&
    after.start - before.end >= limits.recoveryRestHours * HOUR &&
    localNights(before.end, after.start, timeZone) >= limits.recoveryLocalNights
  );
}

/**
 * What a check needs of a roster that stays the same from one offer to the next: its trips' duties,
 * and all of them in time order. Find swaps checks a page of offers against one pilot's roster, the
 * same array (held in memory between requests), so this is kept per array, and trusted only while
 * the array holds the same trip objects (trips are values; an array can be changed in place).
 */
interface RosterIndex {
  trips: readonly TripTimes[];
  allowances: DutyAllowances;
  /** Each trip's duties, null where its times are not known. */
  duties: readonly (Duty[] | null)[];
  /** Every duty in time order, ties in roster order, and the place of its trip in the roster. */
  inOrder: readonly Duty[];
  tripOf: Int32Array;
  /** Each trip's place by its id; null when two trips share one (the check by ids is then not the check by trips). */
  places: Map<string, number> | null;
  /** Per zone and year: each trip's block in the local year (none for a trip not sharing a date with it), and all of it. */
  yearBlock: Map<string, { byTrip: number[]; total: number }>;
}
const rosterIndexes = new WeakMap<readonly TripTimes[], RosterIndex>();

function rosterIndex(trips: readonly TripTimes[], allowances: DutyAllowances): RosterIndex {
  const known = rosterIndexes.get(trips);
  if (
    known &&
    known.trips.length === trips.length &&
    known.trips.every((trip, i) => trip === trips[i]) &&
    known.allowances.reportMinutes === allowances.reportMinutes &&
    known.allowances.releaseMinutes === allowances.releaseMinutes &&
    known.allowances.layoverMinHours === allowances.layoverMinHours
  ) {
    return known;
  }
  const duties = trips.map((trip) => dutiesOf(trip, allowances));
  const placed = duties.flatMap((tripDuties, i) => (tripDuties ?? []).map((duty) => ({ duty, i })));
  placed.sort((a, b) => byTime(a.duty, b.duty));
  const places = new Map(trips.map((trip, i) => [trip.id, i]));
  const index: RosterIndex = {
    trips: [...trips],
    allowances: { reportMinutes: allowances.reportMinutes, releaseMinutes: allowances.releaseMinutes, layoverMinHours: allowances.layoverMinHours },
    duties,
    inOrder: placed.map(({ duty }) => duty),
    tripOf: Int32Array.from(placed, ({ i }) => i),
    places: places.size === trips.length ? places : null,
    yearBlock: new Map(),
  };
  rosterIndexes.set(trips, index);
  return index;
}

/**
 * A swap seen by one pilot: they give `given` away (null for a trip picked up for nothing) and take
 * `taken`. Judged on their roster as it would be after, for the limits the taken trip takes part in.
 * The same as checkLegality(rosterAfterSwap(...), { focusTripId: taken.id }), with what depends on
 * the roster alone read from its index rather than worked out again for every offer.
 */
export function checkSwap(
  trips: readonly TripTimes[],
  given: Pick<TripTimes, 'id'> | null,
  taken: TripTimes,
  limits: FlightTimeLimits,
  homeBase: string,
  timeZone: string,
): Legality {
  const index = rosterIndex(trips, limits);
  const places = index.places;
  if (!places) return checkLegality(rosterAfterSwap(trips, given, taken), limits, homeBase, timeZone, { focusTripId: taken.id });
  // The roster's trips the swap takes out: the one given, and the one taken if the pilot holds it already.
  const givenAt = given ? places.get(given.id) : undefined;
  const takenAt = places.get(taken.id);
  const from = horizonBefore(taken.startDate);
  const to = horizonAfter(taken.endDate);
  const involved = new Uint8Array(trips.length);
  const unknown: TripTimes[] = [];
  for (let i = 0; i < trips.length; i += 1) {
    const trip = trips[i]!;
    if (i === givenAt || i === takenAt || !(trip.endDate >= from && trip.startDate <= to)) continue;
    involved[i] = 1;
    if (!index.duties[i]) unknown.push(trip);
  }
  const takenDuties = dutiesOf(taken, limits);
  const takenInvolved = taken.endDate >= from && taken.startDate <= to;
  if (takenInvolved && !takenDuties) unknown.push(taken);
  if (unknown.length > 0) return timesUnknown(unknown);

  // The roster's duties in their order, with the taken trip's merged in after any they tie with (it comes last).
  const takenInOrder = takenInvolved && takenDuties ? [...takenDuties].sort(byTime) : [];
  const duties: Duty[] = [];
  let next = 0;
  for (let k = 0; k < index.inOrder.length; k += 1) {
    if (!involved[index.tripOf[k]!]) continue;
    const duty = index.inOrder[k]!;
    while (next < takenInOrder.length && byTime(takenInOrder[next]!, duty) < 0) duties.push(takenInOrder[next++]!);
    duties.push(duty);
  }
  while (next < takenInOrder.length) duties.push(takenInOrder[next++]!);

  const inYear: YearTrips = {
    blockWithin(year, span) {
      const roster = rosterYearBlock(index, year, span, timeZone);
      let total = roster.total;
      if (givenAt !== undefined) total -= roster.byTrip[givenAt]!;
      if (takenAt !== undefined && takenAt !== givenAt) total -= roster.byTrip[takenAt]!;
      return nearYear(year)(taken) ? total + blockWithin(takenDuties ?? [], span) : total;
    },
    duties(year) {
      const near = nearYear(year);
      const found: Duty[] = [];
      for (let i = 0; i < trips.length; i += 1) if (i !== givenAt && i !== takenAt && near(trips[i]!)) found.push(...(index.duties[i] ?? []));
      if (near(taken)) found.push(...(takenDuties ?? []));
      return found;
    },
  };
  return judge(duties, taken.id, inYear, limits, homeBase, timeZone);
}

/** The roster's block in a local year, per trip and in all: the same for every offer checked against it. */
function rosterYearBlock(index: RosterIndex, year: string, span: Span, timeZone: string): { byTrip: number[]; total: number } {
  const key = `${timeZone} ${year}`;
  let known = index.yearBlock.get(key);
  if (!known) {
    const near = nearYear(year);
    const byTrip = index.trips.map((trip, i) => (near(trip) ? blockWithin(index.duties[i] ?? [], span) : 0));
    known = { byTrip, total: byTrip.reduce((sum, minutes) => sum + minutes, 0) };
    index.yearBlock.set(key, known);
  }
  return known;
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
