import { numericDate } from '@crewswap/proto/browser';

const dayMonth = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayMonthYear = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

function asDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

/** 'Mon 12 Jan' */
export function formatDay(iso: string): string {
  return dayMonth.format(asDate(iso));
}

/** '12 Jan 2026' */
export function formatDate(iso: string): string {
  return dayMonthYear.format(asDate(iso));
}

/** 'Mon 12 Jan – Thu 15 Jan' (one day when the trip starts and ends the same day). */
export function formatRange(start: string, end: string): string {
  return start === end ? formatDay(start) : `${formatDay(start)} – ${formatDay(end)}`;
}

/** '12/09/2026': a date written in numbers, as the spec's date defaults write it (MM/dd/yyyy, admin spec section 9). */
export const formatNumericDate = numericDate;
