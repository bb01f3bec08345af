import { badRequest, notFound } from '@crewswap/kit';
import { ALWAYS_EXCLUDED_AIRPORTS } from '@crewswap/proto';
import type { AirportRepository } from '../data/airports';

/** The home bases stay excluded whatever an admin does. */
export function createRemoveExcludedAirport(deps: { airports: AirportRepository }) {
  const { airports } = deps;
  return {
    async execute(input: { id: string }): Promise<void> {
      const airport = await airports.findExcluded(input.id);
      if (!airport) throw notFound('Excluded airport not found');
      if ((ALWAYS_EXCLUDED_AIRPORTS as readonly string[]).includes(airport.iataCode)) {
        throw badRequest(`${airport.iataCode} is a home base and is always excluded`, { title: 'Invalid IATA Code' });
      }
      await airports.deleteExcluded(input.id);
    },
  };
}
