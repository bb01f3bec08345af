import { conflict } from '@crewswap/kit';
import type { ExcludedAirport } from '@crewswap/proto';
import type { AirportRepository } from '../data/airports';

/** An airport dropped from imported routes. */
export function createAddExcludedAirport(deps: { airports: AirportRepository }) {
  return {
    async execute(input: { iataCode: string }): Promise<ExcludedAirport> {
      const created = await deps.airports.insertExcluded(input.iataCode);
      if (!created) throw conflict(`${input.iataCode} is already an excluded airport`);
      return created;
    },
  };
}
