import type { Pilot, Trip } from '@crewswap/proto';
import { numericDate } from '@crewswap/proto/browser';

/** The WhatsApp greeting to a crew member: who is writing, and the trip they share. */
export function crewGreeting(
  me: Pick<Pilot, 'rank' | 'firstName' | 'lastName'>,
  them: { firstName: string },
  trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'startDate' | 'endDate'>,
  productName: string,
): string {
  return `Hi ${them.firstName}, this is ${me.rank} ${me.firstName} ${me.lastName}. I found you on ${productName} on ${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route} (${numericDate(trip.startDate)} to ${numericDate(trip.endDate)}).`;
}
