import { numericDate } from '@crewswap/proto/browser';

// Written out rather than asked of Intl: building an Intl.DateTimeFormat loads ICU's locale data,
// which on a phone was the longest task of the trips page's start (issue 57's Lighthouse budget).
// The app writes dates in English only.
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function asDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

/** 'Mon 12 Jan' */
export function formatDay(iso: string): string {
  const date = asDate(iso);
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/** '12 Jan 2026' */
export function formatDate(iso: string): string {
  const date = asDate(iso);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** 'Mon 12 Jan – Thu 15 Jan' (one day when the trip starts and ends the same day). */
export function formatRange(start: string, end: string): string {
  return start === end ? formatDay(start) : `${formatDay(start)} – ${formatDay(end)}`;
}

/** '12/09/2026': a date written in numbers, as the spec's date defaults write it (MM/dd/yyyy, admin spec section 9). */
export const formatNumericDate = numericDate;
