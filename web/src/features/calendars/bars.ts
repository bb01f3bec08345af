import type { Trip } from '@crewswap/proto';
import { formatRange } from '../../shared/format';
import type { BarTone, CalendarBar } from './CalendarGrid';

/** A trip's colour on the calendars: standby yellow, offered red, kept green, training blue. */
export function tripTone(trip: Partial<Pick<Trip, 'isStandby' | 'isSwappable' | 'requested' | 'training'>>, fallback: BarTone = 'own'): BarTone {
  if (trip.isStandby) return 'standby';
  if (trip.isSwappable) return 'offered';
  if (trip.requested) return 'kept';
  if (trip.training) return 'training';
  return fallback;
}

/** What a bar needs of a trip: the pilot's own trips carry every flag, a swap offer only some. */
export type BarTrip = Pick<Trip, 'id' | 'startDate' | 'endDate' | 'flightNoStart' | 'flightNoEnd' | 'route'> &
  Partial<Pick<Trip, 'isStandby' | 'isSwappable' | 'requested' | 'training'>>;

/** A trip as a bar: its route on the bar, flights and dates in the tooltip. */
export function tripBar(trip: BarTrip, options: { fallback?: BarTone; onClick?: () => void; prefix?: string } = {}): CalendarBar {
  const flights = `${trip.flightNoStart}/${trip.flightNoEnd}`;
  const flags = [trip.isSwappable ? 'offered for swap' : '', trip.requested ? 'keep' : '', trip.training ? 'training' : ''].filter(Boolean).join(', ');
  return {
    key: trip.id,
    startDate: trip.startDate,
    endDate: trip.endDate,
    text: trip.isStandby ? `SBY ${trip.route}` : trip.route,
    title: `${options.prefix ?? ''}${flights} ${trip.route} ${formatRange(trip.startDate, trip.endDate)}${flags ? ` (${flags})` : ''}`,
    tone: tripTone(trip, options.fallback),
    onClick: options.onClick,
  };
}
