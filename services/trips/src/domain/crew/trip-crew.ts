import { notFound } from '@crewswap/kit';
import { TRIP_MESSAGES, type CrewMember, type Trip, type TripWithCrew } from '@crewswap/proto';
import { crewKeyOf, type CrewRepository } from '../../data/crew';
import type { TripRepository } from '../../data/trips';

/**
 * Crew on Trip: the other pilots holding the trip's start flight on its start date, in crew order,
 * Master Roster on or off: with it off 'own-trip visibility is limited to swap offers and
 * same-trip crew' (pilot-app section 6), so same-trip crew still see them. Any pilot may ask about
 * their own trip; standby duties fly nothing, so they have no crew.
 */
export function createGetTripCrew(deps: { trips: TripRepository; crew: CrewRepository }) {
  return {
    async execute(input: { pilotId: string; tripId: string }): Promise<CrewMember[]> {
      const crew = await deps.crew.crewOfOwnTrip(input.pilotId, input.tripId);
      if (!crew) throw notFound(TRIP_MESSAGES.tripNotFound);
      return crew;
    },
  };
}

/** `GET /api/trips?includeCrew=true`: the pilot's trips, each with its crew, in one query for all. */
export function createListTripsWithCrew(deps: { trips: TripRepository; crew: CrewRepository }) {
  return {
    async execute(input: { pilotId: string }): Promise<TripWithCrew[]> {
      const trips: Trip[] = await deps.trips.listByPilot(input.pilotId);
      const flying = trips.filter((trip) => !trip.isStandby);
      const crews = await deps.crew.crewOf(flying, input.pilotId);
      return trips.map((trip) => ({ ...trip, crew: trip.isStandby ? [] : (crews.get(crewKeyOf(trip)) ?? []) }));
    },
  };
}
