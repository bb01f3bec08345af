import { formatNumericDate } from '../../shared/format';

/** Dates and times in the admin's own locale and time zone (the browser's). */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A calendar day (YYYY-MM-DD) in the admin's locale, without moving it across midnight. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number);
  if (!year || !month || !day) return iso;
  return dateOnly.format(new Date(year, month - 1, day));
}

/** The access code's updated time, which the spec shows in UTC; the date in numbers, MM/dd/yyyy (admin spec section 9). */
export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const utc = date.toISOString();
  return `${formatNumericDate(utc)} ${utc.slice(11, 16)} UTC`;
}

export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)}s`;
}
