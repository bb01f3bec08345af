import type { Pilot, PilotContact, Trip } from '@crewswap/proto';
import { numericDate } from '@crewswap/proto/browser';

/** wa.me wants the number as digits only, with the country code and no plus. */
export function whatsappDigits(phone: string | null | undefined): string {
  return (phone ?? '').replace(/\D/g, '');
}

export function swapGreeting(
  me: Pick<Pilot, 'rank' | 'firstName' | 'lastName'>,
  them: Pick<PilotContact, 'firstName'>,
  trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'startDate' | 'endDate'>,
  productName: string,
): string {
  return `Hi ${them.firstName}, this is ${me.rank} ${me.firstName} ${me.lastName}. I saw your swap offer on ${productName} for ${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route} (${numericDate(trip.startDate)} to ${numericDate(trip.endDate)}). Is it still available?`;
}

/** The chat link with its greeting, or null when the pilot has no phone number. */
export function whatsappLink(phone: string | null | undefined, greeting: string): string | null {
  const digits = whatsappDigits(phone);
  if (digits === '') return null;
  return `https://wa.me/${digits}?text=${encodeURIComponent(greeting)}`;
}
