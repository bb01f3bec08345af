import { theme } from 'antd';
import { addDays } from '@crewswap/proto/browser';
import type { Trip } from '@crewswap/proto';

export type TripTone = 'kept' | 'offered' | 'neutral';

/** Manage Trip's background: green when kept, red when offered, blue otherwise. */
export function tripTone(trip: Pick<Trip, 'isSwappable' | 'requested'>): TripTone {
  if (trip.isSwappable) return 'offered';
  if (trip.requested) return 'kept';
  return 'neutral';
}

/** Each tone's background and top border, from the theme. */
export function useToneColours(): Record<TripTone, { background: string; border: string }> {
  const { token } = theme.useToken();
  return {
    kept: { background: token.colorSuccessBg, border: token.colorSuccess },
    offered: { background: token.colorErrorBg, border: token.colorError },
    neutral: { background: token.colorInfoBg, border: token.colorInfo },
  };
}

/** What the last Push Alert sent, so the button knows whether there is anything new. */
export interface SentAlert {
  description: string;
  searchStartDate: string | null;
  searchEndDate: string | null;
}

export interface PushAlertInput {
  isSwappable: boolean;
  description: string;
  searchStartDate: string | null;
  searchEndDate: string | null;
  lastSent: SentAlert | undefined;
}

export function isAlreadySent(input: PushAlertInput): boolean {
  const { lastSent } = input;
  return (
    lastSent !== undefined &&
    lastSent.description === input.description.trim() &&
    lastSent.searchStartDate === input.searchStartDate &&
    lastSent.searchEndDate === input.searchEndDate
  );
}

/** Push Alert is for offered trips with a description, and only when there is something new. */
export function canPushAlert(input: PushAlertInput): boolean {
  return input.isSwappable && input.description.trim() !== '' && !isAlreadySent(input);
}

/** The Find & Alert window: within the swap window of the trip's start. */
export function rangeLimits(startDate: string, windowDays: number): { min: string; max: string } {
  return { min: addDays(startDate, -windowDays), max: addDays(startDate, windowDays) };
}

/** Moving From past To moves To; To cannot precede From. */
export function moveRange(
  range: { from: string; to: string },
  change: { from?: string; to?: string },
): { from: string; to: string } {
  if (change.from !== undefined) {
    return { from: change.from, to: range.to !== '' && change.from > range.to ? change.from : range.to };
  }
  if (change.to !== undefined) {
    return { from: range.from, to: range.from !== '' && change.to < range.from ? range.from : change.to };
  }
  return range;
}

/** Kept for the browser session: what each trip's last Push Alert said. */
const sentAlerts = new Map<string, SentAlert>();
export const sentAlertStore = {
  get: (tripId: string) => sentAlerts.get(tripId),
  set: (tripId: string, alert: SentAlert) => sentAlerts.set(tripId, alert),
  clear: (tripId: string) => sentAlerts.delete(tripId),
};
