import type { Trip } from '@crewswap/proto';

/** What must stay the same for a proposal on a trip to stay open: its flights, dates, route and aircraft. */
export function tripKey(trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'startDate' | 'endDate' | 'route' | 'aircraft'>): string {
  return [trip.flightNoStart, trip.flightNoEnd, trip.startDate, trip.endDate, trip.route, trip.aircraft ?? ''].join('|');
}
