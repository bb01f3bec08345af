/**
 * "Today" for every rule of the product is the date in Europe/London. Made on first use: the first
 * time zone format loads the browser's zone data (about 60 ms on a slow machine), which a page that
 * never asks for a date (the login page) should not pay while it starts.
 */
let londonDate: Intl.DateTimeFormat | undefined;

export function londonToday(now: Date = new Date()): string {
  londonDate ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
  return londonDate.format(now);
}

const DAY_MS = 86_400_000;
/** The calendar a `YYYY-MM-DD` string can spell; date sums stop at its ends. */
export const FIRST_DATE = '0000-01-01';
export const LAST_DATE = '9999-12-31';
const FIRST_MS = Date.parse(`${FIRST_DATE}T00:00:00Z`);
const LAST_MS = Date.parse(`${LAST_DATE}T00:00:00Z`);

const toMs = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`);
const fromMs = (ms: number) => new Date(Math.min(LAST_MS, Math.max(FIRST_MS, ms))).toISOString().slice(0, 10);

/**
 * The date `days` later (earlier when negative). Total: a sum past either end of the four-digit
 * calendar stops at that end (toISOString would spell year 10000 as "+010000-01-01", which
 * Postgres refuses and which sorts before "9999"), and a string that is not a date comes back
 * unchanged rather than throwing.
 */
export function addDays(isoDate: string, days: number): string {
  const start = toMs(isoDate);
  if (Number.isNaN(start) || Number.isNaN(days)) return isoDate;
  return fromMs(start + Math.trunc(days) * DAY_MS);
}

/** The same calendar day `years` later (29 February becomes 1 March), bounded like addDays. */
export function addYears(isoDate: string, years: number): string {
  const start = toMs(isoDate);
  if (Number.isNaN(start) || Number.isNaN(years)) return isoDate;
  const date = new Date(start);
  // Ten thousand years either way already reaches an end; beyond that Date itself gives up.
  date.setUTCFullYear(date.getUTCFullYear() + Math.trunc(Math.max(-10_000, Math.min(10_000, years))));
  return fromMs(date.getTime());
}

/** Whole days from `from` to `to` (negative when `to` is earlier); NaN when either is not a date. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toMs(to) - toMs(from)) / DAY_MS);
}

/**
 * Every date the API accepts (trip dates, search ranges, search queries, imported rosters) lies
 * between a year before and two years after today. Crews are rostered weeks ahead, the app warns
 * past 8 weeks, and trips end within days, so anything outside is a typo; bounding input here
 * also keeps every date sum the services make well inside the calendar.
 */
export const ACCEPTED_DATE_YEARS_BACK = 1;
export const ACCEPTED_DATE_YEARS_AHEAD = 2;

export function acceptedDateRange(today: string): { earliest: string; latest: string } {
  return { earliest: addYears(today, -ACCEPTED_DATE_YEARS_BACK), latest: addYears(today, ACCEPTED_DATE_YEARS_AHEAD) };
}

/** '12/09/2026': a day ('YYYY-MM-DD', or the day of a timestamp) as a sentence writes it in numbers, MM/dd/yyyy (admin spec section 9). */
export function numericDate(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${month}/${day}/${year}`;
}

export const dateOutOfRangeMessage = (earliest: string, latest: string) =>
  `Dates must be between ${numericDate(earliest)} and ${numericDate(latest)}. Please check the year.`;

/** The message for the first date outside the accepted range, or undefined when all are inside (null and undefined are skipped). */
export function outOfRangeDate(dates: readonly (string | null | undefined)[], today: string): string | undefined {
  const { earliest, latest } = acceptedDateRange(today);
  const outside = dates.some((date) => typeof date === 'string' && (date < earliest || date > latest));
  return outside ? dateOutOfRangeMessage(earliest, latest) : undefined;
}
