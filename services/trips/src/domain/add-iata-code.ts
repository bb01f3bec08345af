import { conflict } from '@crewswap/kit';
import type { CreateIataCodeBody, IataCode } from '@crewswap/proto';
import type { z } from 'zod';
import type { AirportRepository } from '../data/airports';

/**
 * Adds a code to the IATA table (a pilot confirming an airport, or an admin). `onChange` drops
 * the in-memory copy of the codes that route checks use.
 */
export function createAddIataCode(deps: { airports: AirportRepository; onChange: () => void }) {
  return {
    async execute(input: z.output<typeof CreateIataCodeBody>): Promise<IataCode> {
      const created = await deps.airports.insertIata(input);
      if (!created) throw conflict(`IATA code ${input.iataCode} already exists`);
      deps.onChange();
      return created;
    },
  };
}
