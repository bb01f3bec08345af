import { notFound } from '@crewswap/kit';
import type { AirportRepository } from '../data/airports';

export function createDeleteIataCode(deps: { airports: AirportRepository; onChange: () => void }) {
  return {
    async execute(input: { id: string }): Promise<void> {
      if (!(await deps.airports.deleteIata(input.id))) throw notFound('IATA code not found');
      deps.onChange();
    },
  };
}
