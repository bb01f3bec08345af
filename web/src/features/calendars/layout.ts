import { addDays, daysBetween, masterCalendarWindow } from '@crewswap/proto/browser';

/** Day columns: 36 px below 640 px of screen, 40 px below 1024 px, 50 px otherwise. */
export function dayColumnWidth(screenWidth: number): number {
  if (screenWidth < 640) return 36;
  if (screenWidth < 1024) return 40;
  return 50;
}

export const MIN_LABEL_WIDTH = 120;
export const MAX_LABEL_WIDTH = 200;

/** The row labels take about a quarter of the screen, never less than 120 px nor more than 200 px. */
export function rowLabelWidth(screenWidth: number): number {
  return Math.min(MAX_LABEL_WIDTH, Math.max(MIN_LABEL_WIDTH, Math.round(screenWidth / 4)));
}

/** Days shown before the first trip and after the last. */
export const CALENDAR_PADDING_DAYS = 2;

export interface DayRange {
  from: string;
  to: string;
}

/** The days a calendar spans: its trips with 2 days either side; null when there are none. */
export function paddedRange(trips: ReadonlyArray<{ startDate: string; endDate: string }>, padding = CALENDAR_PADDING_DAYS): DayRange | null {
  if (trips.length === 0) return null;
  let from = trips[0]!.startDate;
  let to = trips[0]!.endDate;
  for (const trip of trips) {
    if (trip.startDate < from) from = trip.startDate;
    if (trip.endDate > to) to = trip.endDate;
  }
  return { from: addDays(from, -padding), to: addDays(to, padding) };
}

/** The Master Calendar's window: the 1st of this month to the 7th of the month after next. */
export function masterWindow(today: string): DayRange {
  // The server's window, so the calendar spans exactly the days it answers for.
  return masterCalendarWindow(today);
}

/** Every day from `from` to `to`, both included. */
export function daysOf(range: DayRange): string[] {
  const count = daysBetween(range.from, range.to) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(range.from, i));
}

const monthName = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });
const monthOf = (iso: string) => monthName.format(new Date(`${iso.slice(0, 7)}-01T00:00:00Z`));

/** Days a month must show before it joins the label (a sliver of the next month does not). */
export const MONTH_LABEL_MIN_DAYS = 3;

/**
 * The month label over the visible days: 'Nov 2026', or 'Nov – Dec 2026' (years named on both
 * ends when they differ) when two months each show at least 3 days; otherwise the month with
 * the most days in view.
 */
export function monthLabel(visibleDays: readonly string[]): string {
  if (visibleDays.length === 0) return '';
  const counts = new Map<string, number>();
  for (const day of visibleDays) counts.set(day.slice(0, 7), (counts.get(day.slice(0, 7)) ?? 0) + 1);
  const months = [...counts.entries()];
  const wide = months.filter(([, count]) => count >= MONTH_LABEL_MIN_DAYS).map(([month]) => month);
  const name = (month: string) => monthOf(`${month}-01`);
  const year = (month: string) => month.slice(0, 4);
  if (wide.length >= 2) {
    const first = wide[0]!;
    const last = wide[wide.length - 1]!;
    return year(first) === year(last)
      ? `${name(first)} – ${name(last)} ${year(last)}`
      : `${name(first)} ${year(first)} – ${name(last)} ${year(last)}`;
  }
  const [most] = months.reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return `${name(most)} ${year(most)}`;
}

/** The days in view for a scroll position, given the day columns' width and the track's visible width. */
export function visibleDays(days: readonly string[], scrollLeft: number, viewWidth: number, columnWidth: number): string[] {
  const first = Math.max(0, Math.floor(scrollLeft / columnWidth));
  const last = Math.min(days.length - 1, Math.ceil((scrollLeft + viewWidth) / columnWidth) - 1);
  return days.slice(first, last + 1);
}

/** Where to scroll so that today sits about a third of the way into the view (0 when today is not shown). */
export function scrollToToday(days: readonly string[], today: string, viewWidth: number, columnWidth: number): number {
  const index = days.indexOf(today);
  if (index < 0) return 0;
  const max = Math.max(0, days.length * columnWidth - viewWidth);
  return Math.min(max, Math.max(0, Math.round(index * columnWidth - viewWidth / 3)));
}

/** A bar's place on the track: its first column and how many columns it covers (clipped to the range). */
export function barPlacement(range: DayRange, trip: { startDate: string; endDate: string }): { start: number; span: number } | null {
  const from = trip.startDate < range.from ? range.from : trip.startDate;
  const to = trip.endDate > range.to ? range.to : trip.endDate;
  if (from > to) return null;
  return { start: daysBetween(range.from, from), span: daysBetween(from, to) + 1 };
}
